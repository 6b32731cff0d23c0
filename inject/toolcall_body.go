package inject

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/drill-dev/drill/internal/sse"
)

// The chat workload's faults (malformed-tool-call, loop) rewrite the tool
// calls of a chat completion, whole or streamed. A stream is read to its
// end and sent again as OpenAI streams tool calls, so it arrives when the
// model has finished. Only the first choice is kept (the chat workload asks
// for one).

// toolCall is one function call of an answer.
type toolCall struct {
	ID        string
	Name      string
	Arguments string
}

// wireToolCall is a tool call as the chat completions API writes it: in an
// answer's message, in a stream's delta (Index says which call a piece
// belongs to) and in a request's assistant message.
type wireToolCall struct {
	Index    int    `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

func (w wireToolCall) call() toolCall {
	return toolCall{ID: w.ID, Name: w.Function.Name, Arguments: w.Function.Arguments}
}

// envelope is what a chat completion and each of its stream's chunks carry
// around the choices.
type envelope struct {
	ID          string `json:"id"`
	Model       string `json:"model"`
	Created     int64  `json:"created"`
	Fingerprint string `json:"system_fingerprint"`
}

// toolAnswer is a chat completion reduced to what the chat faults rewrite:
// the first choice's tool calls or content, with the envelope to send them
// in again.
type toolAnswer struct {
	envelope
	Calls   []toolCall
	Content string
	Finish  string
	Usage   json.RawMessage // the usage as the model sent it; nil if none
	stream  bool
	whole   map[string]any // a whole completion, for rewriting in place
}

// readToolAnswer reads a 200's body, whole or streamed. ok is false when
// the body is not a chat completion (it is then returned as read).
func readToolAnswer(resp *http.Response) (ans toolAnswer, body []byte, ok bool, err error) {
	body, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return toolAnswer{}, nil, false, err
	}
	if sse.IsStream(resp.Header) {
		ans, ok = parseToolStream(body)
	} else {
		ans, ok = parseToolCompletion(body)
	}
	return ans, body, ok, nil
}

func parseToolCompletion(body []byte) (toolAnswer, bool) {
	var c struct {
		envelope
		Choices []struct {
			Message struct {
				Content   *string        `json:"content"`
				ToolCalls []wireToolCall `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage json.RawMessage `json:"usage"`
	}
	var whole map[string]any
	if json.Unmarshal(body, &c) != nil || json.Unmarshal(body, &whole) != nil || len(c.Choices) == 0 {
		return toolAnswer{}, false
	}
	ch := c.Choices[0]
	a := toolAnswer{envelope: c.envelope, Finish: ch.FinishReason, Usage: c.Usage, whole: whole}
	if ch.Message.Content != nil {
		a.Content = *ch.Message.Content
	}
	for _, tc := range ch.Message.ToolCalls {
		a.Calls = append(a.Calls, tc.call())
	}
	return a, true
}

func parseToolStream(body []byte) (toolAnswer, bool) {
	a := toolAnswer{stream: true}
	got := false
	for _, raw := range bytes.SplitAfter(body, []byte("\n\n")) {
		for _, data := range (sse.Event{Raw: raw}).Data() {
			var c struct {
				envelope
				Choices []struct {
					Index int `json:"index"`
					Delta struct {
						Content   string         `json:"content"`
						ToolCalls []wireToolCall `json:"tool_calls"`
					} `json:"delta"`
					FinishReason *string `json:"finish_reason"`
				} `json:"choices"`
				Usage json.RawMessage `json:"usage"`
			}
			if json.Unmarshal(data, &c) != nil {
				continue // [DONE]
			}
			if !got {
				a.envelope, got = c.envelope, true
			}
			if len(c.Usage) > 0 && !bytes.Equal(c.Usage, []byte("null")) {
				a.Usage = c.Usage
			}
			for _, ch := range c.Choices {
				if ch.Index != 0 {
					continue
				}
				a.Content += ch.Delta.Content
				for _, tc := range ch.Delta.ToolCalls {
					for len(a.Calls) <= tc.Index {
						a.Calls = append(a.Calls, toolCall{})
					}
					call := &a.Calls[tc.Index]
					if tc.ID != "" {
						call.ID = tc.ID
					}
					call.Name += tc.Function.Name
					call.Arguments += tc.Function.Arguments
				}
				if ch.FinishReason != nil {
					a.Finish = *ch.FinishReason
				}
			}
		}
	}
	return a, got
}

// render writes the answer back: a whole completion with its first
// choice's message replaced, or a stream as OpenAI sends tool calls (the
// role and each call's id and name in its first delta, the arguments in
// pieces of about three tokens, the finish reason, the usage if the model
// sent one, [DONE]).
func (a toolAnswer) render() []byte {
	if !a.stream {
		msg := map[string]any{"role": "assistant", "content": nil, "refusal": nil}
		if len(a.Calls) == 0 {
			msg["content"] = a.Content
		} else {
			calls := make([]any, len(a.Calls))
			for i, c := range a.Calls {
				calls[i] = map[string]any{"id": c.ID, "type": "function", "function": map[string]any{"name": c.Name, "arguments": c.Arguments}}
			}
			msg["tool_calls"] = calls
		}
		choices, _ := a.whole["choices"].([]any)
		ch, _ := choices[0].(map[string]any)
		ch["message"], ch["finish_reason"] = msg, a.Finish
		b, _ := json.Marshal(a.whole)
		return b
	}
	var out bytes.Buffer
	usage := any(nil)
	if a.Usage != nil {
		usage = json.RawMessage("null")
	}
	// emit writes one chunk: the envelope, choices, and usage unless nil.
	emit := func(choices []any, usage any) {
		c := map[string]any{"id": a.ID, "object": "chat.completion.chunk", "created": a.Created, "model": a.Model,
			"system_fingerprint": a.Fingerprint, "choices": choices}
		if usage != nil {
			c["usage"] = usage
		}
		b, _ := json.Marshal(c)
		fmt.Fprintf(&out, "data: %s\n\n", b)
	}
	chunk := func(delta map[string]any, finish any) {
		emit([]any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}, usage)
	}
	const piece = 3 * BytesPerToken
	if len(a.Calls) == 0 {
		chunk(map[string]any{"role": "assistant", "content": ""}, nil)
		for rest := a.Content; rest != ""; {
			n := min(piece, len(rest))
			chunk(map[string]any{"content": rest[:n]}, nil)
			rest = rest[n:]
		}
	}
	for i, c := range a.Calls {
		first := map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": ""}}}}
		if i == 0 {
			first["role"] = "assistant"
		}
		chunk(first, nil)
		for rest := c.Arguments; rest != ""; {
			n := min(piece, len(rest))
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": rest[:n]}}}}, nil)
			rest = rest[n:]
		}
	}
	chunk(map[string]any{}, a.Finish)
	if a.Usage != nil {
		emit([]any{}, a.Usage)
	}
	out.WriteString("data: [DONE]\n\n")
	return out.Bytes()
}

// replaceBody sets resp's body to b.
func replaceBody(resp *http.Response, b []byte) {
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
	resp.Header.Del("Content-Length")
}

// requestToolCalls returns the tool calls of the last assistant message of
// a chat completion request that has any.
func requestToolCalls(body []byte) []toolCall {
	var r struct {
		Messages []struct {
			Role      string         `json:"role"`
			ToolCalls []wireToolCall `json:"tool_calls"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &r) != nil {
		return nil
	}
	for i := len(r.Messages) - 1; i >= 0; i-- {
		m := r.Messages[i]
		if m.Role != "assistant" || len(m.ToolCalls) == 0 {
			continue
		}
		calls := make([]toolCall, len(m.ToolCalls))
		for k, tc := range m.ToolCalls {
			calls[k] = tc.call()
		}
		return calls
	}
	return nil
}

// offersToolCalls reports whether a chat completion request lets the
// model call a tool: it offers tools and its tool_choice is not "none".
func offersToolCalls(body []byte) bool {
	var r struct {
		Tools      []json.RawMessage `json:"tools"`
		ToolChoice json.RawMessage   `json:"tool_choice"`
	}
	if json.Unmarshal(body, &r) != nil || len(r.Tools) == 0 {
		return false
	}
	var mode string
	return json.Unmarshal(r.ToolChoice, &mode) != nil || mode != "none"
}

// requestBody returns a request's body as the injector buffered it (nil if
// it cannot be read again).
func requestBody(req *http.Request) []byte {
	if req.GetBody == nil {
		return nil
	}
	rc, err := req.GetBody()
	if err != nil {
		return nil
	}
	defer rc.Close()
	b, _ := io.ReadAll(rc)
	return b
}

// brokenJSON returns args cut so they no longer parse as JSON.
func brokenJSON(args string) string {
	s := strings.TrimSpace(args)
	s = s[:len(s)/2]
	if json.Valid([]byte(s)) {
		s = "{" + s
	}
	return s
}
