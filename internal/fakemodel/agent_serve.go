package fakemodel

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"time"
)

// agentMessage is an assistant message that may carry tool calls: content is
// null when it does.
type agentMessage struct {
	Role      string         `json:"role"`
	Content   *string        `json:"content"`
	Refusal   *string        `json:"refusal"`
	ToolCalls []toolCallJSON `json:"tool_calls,omitempty"`
}

type agentDelta struct {
	Role      string         `json:"role,omitempty"`
	Content   *string        `json:"content,omitempty"`
	ToolCalls []toolCallJSON `json:"tool_calls,omitempty"`
}

// toolCallJSON is a tool call as OpenAI writes it; Index is set only in
// stream deltas, ID and Type only in a call's first delta.
type toolCallJSON struct {
	Index    *int         `json:"index,omitempty"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function functionJSON `json:"function"`
}

type functionJSON struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

type agentChoice struct {
	Index        int           `json:"index"`
	Message      *agentMessage `json:"message,omitempty"`
	Delta        *agentDelta   `json:"delta,omitempty"`
	Logprobs     *struct{}     `json:"logprobs"`
	FinishReason any           `json:"finish_reason"`
}

type agentCompletion struct {
	ID                string        `json:"id"`
	Object            string        `json:"object"`
	Created           int64         `json:"created"`
	Model             string        `json:"model"`
	Choices           []agentChoice `json:"choices"`
	Usage             any           `json:"usage,omitempty"`
	SystemFingerprint string        `json:"system_fingerprint"`
}

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
	id := fmt.Sprintf("chatcmpl-drill%016x", rnd.Uint64())
	for i := range reply.Calls {
		reply.Calls[i].ID = fmt.Sprintf("call_drill%014x", rnd.Uint64()>>8)
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

	ctx := r.Context()
	if !sleep(ctx, wait) {
		return
	}
	now := time.Now().Unix()
	if !req.Stream {
		choices := make([]agentChoice, req.N)
		for i := range choices {
			msg := &agentMessage{Role: "assistant"}
			if len(reply.Calls) == 0 {
				msg.Content = &reply.Content
			}
			for _, c := range reply.Calls {
				msg.ToolCalls = append(msg.ToolCalls, toolCallJSON{ID: c.ID, Type: "function", Function: functionJSON{Name: c.Name, Arguments: c.Arguments}})
			}
			choices[i] = agentChoice{Index: i, Message: msg, FinishReason: finish}
		}
		writeJSON(w, agentCompletion{ID: id, Object: "chat.completion", Created: now, Model: req.Model,
			Choices: choices, Usage: &usage, SystemFingerprint: "fp_drill"})
		return
	}

	stream := openStream(ctx, w)
	send := stream.send
	var nullUsage any
	if req.IncludeUsage {
		nullUsage = json.RawMessage("null")
	}
	chunk := func(d *agentDelta, finish *string) bool {
		for i := range req.N {
			c := agentCompletion{ID: id, Object: "chat.completion.chunk", Created: now, Model: req.Model, SystemFingerprint: "fp_drill",
				Choices: []agentChoice{{Index: i, Delta: d, FinishReason: finish}}, Usage: nullUsage}
			if !send(c) {
				return false
			}
		}
		return true
	}
	perToken := time.Duration(0)
	if s.scale > 0 && p.Latency.TokensPerSecond > 0 {
		perToken = time.Duration(float64(time.Second) / p.Latency.TokensPerSecond * s.scale)
	}
	// pieces sends text in pieces of about three tokens, each after the
	// time the profile takes to write it.
	const chunkTokens = 3
	pieces := func(text string, each func(piece string) *agentDelta) bool {
		for rest := text; rest != ""; {
			n := pieceLen(rest, chunkTokens*4)
			piece := rest[:n]
			rest = rest[n:]
			if !sleep(ctx, perToken*time.Duration(math.Ceil(float64(n)/4))) {
				return false
			}
			if !chunk(each(piece), nil) {
				return false
			}
		}
		return true
	}
	if len(reply.Calls) == 0 {
		if !chunk(&agentDelta{Role: "assistant", Content: strp("")}, nil) {
			return
		}
		if !pieces(reply.Content, func(piece string) *agentDelta { return &agentDelta{Content: &piece} }) {
			return
		}
	} else {
		for i, c := range reply.Calls {
			d := &agentDelta{ToolCalls: []toolCallJSON{{Index: &i, ID: c.ID, Type: "function", Function: functionJSON{Name: c.Name}}}}
			if i == 0 {
				d.Role = "assistant"
			}
			if !chunk(d, nil) {
				return
			}
			if !pieces(c.Arguments, func(piece string) *agentDelta {
				return &agentDelta{ToolCalls: []toolCallJSON{{Index: &i, Function: functionJSON{Arguments: piece}}}}
			}) {
				return
			}
		}
	}
	if !chunk(&agentDelta{}, &finish) {
		return
	}
	if req.IncludeUsage {
		if !send(agentCompletion{ID: id, Object: "chat.completion.chunk", Created: now, Model: req.Model, SystemFingerprint: "fp_drill",
			Choices: []agentChoice{}, Usage: &usage}) {
			return
		}
	}
	stream.done()
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
