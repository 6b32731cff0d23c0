package fakemodel

import (
	"net/http"
	"time"
)

// agentUsage counts a tool-calling request and its reply: the prompt is every
// message (content and tool calls: the whole history, resent each turn) plus
// the tool definitions; the completion is the content or the calls.
func agentUsage(req *ChatRequest, reply agentReply) Usage {
	u := Usage{PromptTokens: 3 + req.toolTokens}
	for _, m := range req.Messages {
		u.PromptTokens += 3 + countTokens(m.Content)
		for _, c := range m.ToolCalls {
			u.PromptTokens += 3 + countTokens(c.Name) + countTokens(c.Arguments)
		}
	}
	completion := countTokens(reply.Content)
	for _, c := range reply.Calls {
		completion += 3 + countTokens(c.Name) + countTokens(c.Arguments)
	}
	u.CompletionTokens = req.N * completion
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	return u
}

// serveAgent answers a request that offers tools (see agent.go): after the
// latency wait, the agent's content or tool calls, whole or streamed as
// OpenAI streams them (a call's id and name in its first delta, the
// arguments in pieces, finish_reason "tool_calls"). seed is the call's
// seed, which chat has hashed once from the body: the ids are drawn from it.
func (s *Server) serveAgent(w http.ResponseWriter, r *http.Request, req *ChatRequest, p profile, seed uint64, wait time.Duration, info *requestInfo) {
	reply := agentRespond(p.Reader, req)
	rnd := randOf(seed)
	id := hexID("chatcmpl-drill", rnd.Uint64(), 16)
	for i := range reply.Calls {
		reply.Calls[i].ID = hexID("call_drill", rnd.Uint64()>>8, 14)
	}
	finish := "stop"
	if len(reply.Calls) > 0 {
		finish = "tool_calls"
		if req.MaxTokens > 0 && cutCalls(&reply, req.MaxTokens) {
			finish = "length"
		}
	} else if req.MaxTokens > 0 {
		if cut, was := truncateTokens(reply.Content, req.MaxTokens); was {
			reply.Content, finish = cut, "length"
		}
	}
	usage := agentUsage(req, reply)
	info.usage = usage
	s.write(r.Context(), w, req, p, wait, outgoing{id: id, content: reply.Content, calls: reply.Calls, finish: finish, usage: usage})
}

// cutCalls cuts the reply's calls to max completion tokens, as OpenAI does
// when max_completion_tokens runs out mid-call: the arguments stop where
// the tokens did (so they do not parse) and later calls are dropped. It
// reports whether anything was cut.
func cutCalls(reply *agentReply, max int) bool {
	left := max
	for i, c := range reply.Calls {
		left -= 3 + countTokens(c.Name)
		if left < 0 {
			left = 0
		}
		cut, was := truncateTokens(c.Arguments, left)
		if was {
			reply.Calls[i].Arguments = cut
			reply.Calls = reply.Calls[:i+1]
			return true
		}
		left -= countTokens(c.Arguments)
	}
	return false
}
