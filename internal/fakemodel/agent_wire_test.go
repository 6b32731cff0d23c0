package fakemodel_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"

	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/tools"
)

// toolsJSON is tools.Definitions as the SDK sends them.
func toolsJSON(t *testing.T) []any {
	t.Helper()
	b, err := json.Marshal(tools.Definitions())
	if err != nil {
		t.Fatal(err)
	}
	var v []any
	json.Unmarshal(b, &v)
	return v
}

// agentBody is a chat request about email 1 offering the tools, with
// messages after the user's and extra top-level keys (nil deletes one).
func agentBody(t *testing.T, more []any, extra map[string]any) []byte {
	t.Helper()
	m := map[string]any{
		"model":    fakemodel.ModelMini,
		"messages": append([]any{map[string]any{"role": "user", "content": email(t, 1).Text()}}, more...),
		"tools":    toolsJSON(t),
	}
	for k, v := range extra {
		if v == nil {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return b
}

func assistantCall(id, name string) map[string]any {
	return map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{
		map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": `{"order_id":"DR-104233"}`}}}}
}

func toolMsg(id, content string) map[string]any {
	return map[string]any{"role": "tool", "tool_call_id": id, "content": content}
}

func TestAgentRejects(t *testing.T) {
	ts := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true}))
	defer ts.Close()
	for _, c := range []struct {
		name        string
		more        []any
		extra       map[string]any
		param, word string
	}{
		{"tool result for no call", []any{toolMsg("call_x", "{}")}, nil, "messages[1].role", "'call_x' was not found"},
		{"tool result for another call", []any{assistantCall("call_a", "get_order"), toolMsg("call_b", "{}")}, nil, "messages[2].role", "'call_b' was not found"},
		{"call without a result", []any{assistantCall("call_a", "get_order"), map[string]any{"role": "user", "content": "hello?"}}, nil, "messages[1].role", "did not have response messages: call_a"},
		{"call without a result at the end", []any{assistantCall("call_a", "get_order")}, nil, "messages[1].role", "call_a"},
		{"tool message without an id", []any{map[string]any{"role": "tool", "content": "{}"}}, nil, "messages[1].tool_call_id", "Missing required parameter"},
		{"tool_choice naming another function", nil, map[string]any{"tool_choice": map[string]any{"type": "function", "function": map[string]any{"name": "refund"}}}, "tool_choice", "'refund' not found in 'tools'"},
		{"tool_choice unknown mode", nil, map[string]any{"tool_choice": "sometimes"}, "tool_choice", "expected one of none, auto, required"},
		{"tool_choice without tools", nil, map[string]any{"tools": nil, "tool_choice": "auto"}, "tool_choice", "only allowed when 'tools' are specified"},
		{"parallel_tool_calls without tools", nil, map[string]any{"tools": nil, "parallel_tool_calls": false}, "parallel_tool_calls", "only allowed when 'tools' are specified"},
		{"parallel_tool_calls not a boolean", nil, map[string]any{"parallel_tool_calls": "no"}, "parallel_tool_calls", "expected a boolean"},
		{"empty tools", nil, map[string]any{"tools": []any{}}, "tools", "empty array"},
		{"allowed_tools naming another function", nil, map[string]any{"tool_choice": allowed("auto", "refund")}, "tool_choice.allowed_tools.tools", "'refund' not found in 'tools'"},
		{"allowed_tools bad mode", nil, map[string]any{"tool_choice": allowed("sometimes", "get_order")}, "tool_choice.allowed_tools.mode", "expected one of auto, required"},
		{"bad function name", nil, map[string]any{"tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "get order"}}}}, "tools[0].function.name", "does not match pattern"},
		{"duplicate function", nil, map[string]any{"tools": append(toolsJSON(t), toolsJSON(t)[0])}, "tools", "duplicate function name 'get_order'"},
		{"strict parameters not closed", nil, map[string]any{"tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "f", "strict": true,
			"parameters": map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}}, "required": []any{"a"}}}}}}, "tools[0].function.parameters", "additionalProperties"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := post(t, ts.URL, agentBody(t, c.more, c.extra), "application/json")
			var e errBody
			if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != 400 || deref(e.Error.Param) != c.param || !strings.Contains(e.Error.Message, c.word) {
				t.Errorf("status %d param %q message %q; want 400 param %q saying %q", resp.StatusCode, deref(e.Error.Param), e.Error.Message, c.param, c.word)
			}
		})
	}
}

func TestAgentSDKRejectsUnmatchedToolResult(t *testing.T) {
	for name, c := range clients(t, fakemodel.Options{NoLatency: true}) {
		t.Run(name, func(t *testing.T) {
			_, err := c.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
				Model:    fakemodel.ModelMini,
				Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(email(t, 1).Text()), openai.ToolMessage("{}", "call_nobody")},
				Tools:    tools.Definitions(),
			})
			var apiErr *openai.Error
			if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || apiErr.Param != "messages[1].role" {
				t.Errorf("err %v, want a 400 on messages[1].role", err)
			}
		})
	}
}

func TestAgentToolChoice(t *testing.T) {
	ts := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true}))
	defer ts.Close()
	done := []any{assistantCall("call_a", "get_order"), toolMsg("call_a", services(t)(tools.GetOrder, `{"order_id":"DR-104233"}`)),
		assistantCall("call_b", "get_delivery_status"), toolMsg("call_b", services(t)(tools.GetDeliveryStatus, `{"order_id":"DR-104233"}`))}
	for _, c := range []struct {
		name   string
		more   []any
		choice any
		want   string // the function called, or "" for content
	}{
		{"auto first", nil, "auto", "get_order"},
		{"none first interprets", nil, "none", ""},
		{"required when done", done, "required", "get_delivery_status"},
		{"auto when done answers", done, "auto", ""},
		{"none after the order answers", done[:2], "none", ""},
		{"named", nil, map[string]any{"type": "function", "function": map[string]any{"name": "get_tracking_events"}}, "get_tracking_events"},
		{"allowed tools: the carrier's events only", done[:2], allowed("auto", "get_tracking_events"), "get_tracking_events"},
		{"allowed tools: the order only, once known", done[:2], allowed("auto", "get_order"), ""},
		{"allowed tools required", done, allowed("required", "get_order", "get_tracking_events"), "get_tracking_events"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := post(t, ts.URL, agentBody(t, c.more, map[string]any{"tool_choice": c.choice}), "application/json")
			var got struct {
				Choices []struct {
					Message struct {
						Content   *string `json:"content"`
						ToolCalls []struct {
							ID       string `json:"id"`
							Type     string `json:"type"`
							Function struct{ Name, Arguments string }
						} `json:"tool_calls"`
					} `json:"message"`
					FinishReason string `json:"finish_reason"`
				} `json:"choices"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || resp.StatusCode != 200 {
				t.Fatalf("status %d, %v", resp.StatusCode, err)
			}
			m := got.Choices[0].Message
			if c.want == "" {
				if m.Content == nil || *m.Content == "" || len(m.ToolCalls) != 0 || got.Choices[0].FinishReason != "stop" {
					t.Errorf("got %+v, want content", got.Choices[0])
				}
				return
			}
			if m.Content != nil || len(m.ToolCalls) != 1 || m.ToolCalls[0].Function.Name != c.want || m.ToolCalls[0].Type != "function" ||
				!strings.HasPrefix(m.ToolCalls[0].ID, "call_") || m.ToolCalls[0].Function.Arguments != `{"order_id":"DR-104233"}` || got.Choices[0].FinishReason != "tool_calls" {
				t.Errorf("got %+v, want a call to %s with content null", got.Choices[0], c.want)
			}
		})
	}
}

func TestAgentStreamDeltas(t *testing.T) {
	ts := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true}))
	defer ts.Close()
	resp := post(t, ts.URL, agentBody(t, nil, map[string]any{"stream": true, "stream_options": map[string]any{"include_usage": true}}), "application/json")
	chunks := sseChunks(t, resp.Body)
	type tc struct {
		Index    *int    `json:"index"`
		ID       *string `json:"id"`
		Type     *string `json:"type"`
		Function struct {
			Name      *string `json:"name"`
			Arguments *string `json:"arguments"`
		} `json:"function"`
	}
	var args strings.Builder
	pieces, finish := 0, ""
	var usage json.RawMessage
	for i, ch := range chunks {
		var choices []struct {
			Delta struct {
				Role      string `json:"role"`
				ToolCalls []tc   `json:"tool_calls"`
			} `json:"delta"`
			FinishReason *string `json:"finish_reason"`
		}
		json.Unmarshal(ch["choices"], &choices)
		if len(choices) == 0 {
			usage = ch["usage"]
			continue
		}
		d := choices[0].Delta
		if choices[0].FinishReason != nil {
			finish = *choices[0].FinishReason
		}
		for _, c := range d.ToolCalls {
			if c.Index == nil || *c.Index != 0 {
				t.Errorf("chunk %d: index %v", i, c.Index)
			}
			if i == 0 {
				if d.Role != "assistant" || c.ID == nil || c.Type == nil || c.Function.Name == nil || *c.Function.Name != "get_order" {
					t.Errorf("first delta %+v: want the role, id, type and name", d)
				}
				continue
			}
			if c.ID != nil || c.Function.Name != nil {
				t.Errorf("chunk %d repeats the id or name", i)
			}
			args.WriteString(*c.Function.Arguments)
			pieces++
		}
	}
	if args.String() != `{"order_id":"DR-104233"}` || pieces < 2 || finish != "tool_calls" {
		t.Errorf("arguments %q in %d pieces, finish %q; want the whole arguments in pieces and tool_calls", args.String(), pieces, finish)
	}
	var u fakemodel.Usage
	if json.Unmarshal(usage, &u) != nil || u.CompletionTokens == 0 || u.PromptTokens == 0 {
		t.Errorf("usage chunk %s", usage)
	}
}

// TestAgentAfterALoop: after the order was asked for twice (a loop), the
// agent goes on to the delivery: one loop costs one call.
func TestAgentAfterALoop(t *testing.T) {
	ts := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true}))
	defer ts.Close()
	order := services(t)(tools.GetOrder, `{"order_id":"DR-104233"}`)
	more := []any{assistantCall("call_a", "get_order"), toolMsg("call_a", order), assistantCall("call_b", "get_order"), toolMsg("call_b", order)}
	resp := post(t, ts.URL, agentBody(t, more, nil), "application/json")
	var got struct {
		Choices []struct {
			Message struct {
				ToolCalls []struct {
					Function struct{ Name string }
				} `json:"tool_calls"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || len(got.Choices) != 1 {
		t.Fatalf("status %d, %v", resp.StatusCode, err)
	}
	if tc := got.Choices[0].Message.ToolCalls; len(tc) != 1 || tc[0].Function.Name != tools.GetDeliveryStatus {
		t.Errorf("after a loop on the order: %+v, want get_delivery_status", got.Choices[0].Message)
	}
}

// TestAgentMaxTokensCutsTheArguments: a call cut by max_completion_tokens
// ends "length" with arguments that do not parse.
func TestAgentMaxTokensCutsTheArguments(t *testing.T) {
	ts := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true}))
	defer ts.Close()
	resp := post(t, ts.URL, agentBody(t, nil, map[string]any{"max_completion_tokens": 8}), "application/json")
	var got struct {
		Choices []struct {
			Message struct {
				ToolCalls []struct {
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage fakemodel.Usage `json:"usage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || len(got.Choices) != 1 {
		t.Fatalf("status %d, %v", resp.StatusCode, err)
	}
	ch := got.Choices[0]
	if ch.FinishReason != "length" || len(ch.Message.ToolCalls) != 1 || json.Valid([]byte(ch.Message.ToolCalls[0].Function.Arguments)) || got.Usage.CompletionTokens > 8 {
		t.Errorf("got %+v, usage %+v; want a get_order call cut to 8 tokens, finish length", ch, got.Usage)
	}
}

// TestAgentReadsTheCustomersAnswer: asked for the order number, the
// customer's next message gives it; the agent looks it up, keeping the
// first message's question.
func TestAgentReadsTheCustomersAnswer(t *testing.T) {
	ts := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true}))
	defer ts.Close()
	body, _ := json.Marshal(map[string]any{
		"model": fakemodel.ModelMini,
		"tools": toolsJSON(t),
		"messages": []any{
			map[string]any{"role": "user", "content": "Subject: where is my tent\n\nMy Trailhead 2 tent has not arrived. Where is it?"},
			map[string]any{"role": "assistant", "content": "Could you tell me your order number?"},
			map[string]any{"role": "user", "content": "Sure, it is DR-104233"},
		},
		"tool_choice": "none",
	})
	resp := post(t, ts.URL, body, "application/json")
	var got struct {
		Choices []struct {
			Message struct{ Content string } `json:"message"`
		} `json:"choices"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || len(got.Choices) != 1 {
		t.Fatalf("status %d, %v", resp.StatusCode, err)
	}
	if c := got.Choices[0].Message.Content; !strings.Contains(c, "intent order_status") || !strings.Contains(c, "DR-104233") || !strings.Contains(c, "Trailhead 2 Tent") {
		t.Errorf("interpretation %q: want the first message's question with the second's order number", c)
	}
}

// allowed is an allowed_tools tool_choice of mode over the named functions.
func allowed(mode string, names ...string) map[string]any {
	var ts []any
	for _, n := range names {
		ts = append(ts, map[string]any{"type": "function", "function": map[string]any{"name": n}})
	}
	return map[string]any{"type": "allowed_tools", "allowed_tools": map[string]any{"mode": mode, "tools": ts}}
}
