package proxy

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/sse"
	"github.com/drill-dev/drill/scoring"
)

// toolRequest is a tool-calling chat completion as an agent sends it on its
// second turn: the customer's question, its own get_order call and the
// order service's result, with the two lookup tools offered.
func toolRequest(stream bool) string {
	tool := func(name string) map[string]any {
		return map[string]any{"type": "function", "function": map[string]any{"name": name,
			"parameters": map[string]any{"type": "object", "properties": map[string]any{"order_id": map[string]any{"type": "string"}}}}}
	}
	body := map[string]any{"model": fakemodel.ModelMini, "stream": stream, "tool_choice": "auto",
		"tools": []any{tool("get_order"), tool("get_delivery_status")},
		"messages": []any{
			map[string]any{"role": "user", "content": "Where is my order DR-123456?"},
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "call_1", "type": "function",
				"function": map[string]any{"name": "get_order", "arguments": `{"order_id":"DR-123456"}`}}}},
			map[string]any{"role": "tool", "tool_call_id": "call_1", "content": `{"order_id":"DR-123456","status":"shipped"}`},
		}}
	if stream {
		body["stream_options"] = map[string]any{"include_usage": true}
	}
	b, _ := json.Marshal(body)
	return string(b)
}

// answerCalls reads a chat completion's (or a stream's) first choice: its
// tool calls' names and arguments.
func answerCalls(t *testing.T, resp *http.Response, body []byte) (names, args []string) {
	t.Helper()
	type wire struct {
		Index    int                              `json:"index"`
		Function struct{ Name, Arguments string } `json:"function"`
	}
	if !sse.IsStream(resp.Header) {
		var c struct {
			Choices []struct {
				Message struct {
					ToolCalls []wire `json:"tool_calls"`
				} `json:"message"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(body, &c); err != nil || len(c.Choices) == 0 {
			t.Fatalf("not a chat completion (%v): %s", err, body)
		}
		for _, tc := range c.Choices[0].Message.ToolCalls {
			names, args = append(names, tc.Function.Name), append(args, tc.Function.Arguments)
		}
		return names, args
	}
	for _, raw := range bytes.SplitAfter(body, []byte("\n\n")) {
		for _, data := range (sse.Event{Raw: raw}).Data() {
			var c struct {
				Choices []struct {
					Delta struct {
						ToolCalls []wire `json:"tool_calls"`
					} `json:"delta"`
				} `json:"choices"`
			}
			if json.Unmarshal(data, &c) != nil || len(c.Choices) == 0 {
				continue
			}
			for _, tc := range c.Choices[0].Delta.ToolCalls {
				for len(names) <= tc.Index {
					names, args = append(names, ""), append(args, "")
				}
				names[tc.Index] += tc.Function.Name
				args[tc.Index] += tc.Function.Arguments
			}
		}
	}
	return names, args
}

// The chat workload's own faults through drill proxy, on a client's own
// tool-calling traffic, streamed and not: overloaded refuses with a 529
// "overloaded"; malformed-tool-call answers with arguments that do not
// parse; loop answers with the request's previous tool call again. Each
// is the fault the chat workload's injector applies (one implementation),
// recorded as a fault on its request in the proxy's journal and counted in
// its tally.
func TestProxyInjectsTheChatFaults(t *testing.T) {
	for _, kind := range []string{"overloaded", "malformed-tool-call", "loop"} {
		for _, stream := range []bool{false, true} {
			name := kind
			if stream {
				name += "/streamed"
			}
			t.Run(name, func(t *testing.T) {
				s := start(t, Options{Windows: []event.Window{{FaultSpec: event.FaultSpec{Kind: kind}, From: 0, To: time.Hour}}})
				resp, err := http.Post(s.url+"/chat/completions", "application/json", strings.NewReader(toolRequest(stream)))
				if err != nil {
					t.Fatal(err)
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil {
					t.Fatal(err)
				}
				switch kind {
				case "overloaded":
					if resp.StatusCode != 529 || !strings.Contains(string(body), `"code":"overloaded"`) {
						t.Errorf("status %d %s, want a 529 overloaded refusal", resp.StatusCode, body)
					}
				case "malformed-tool-call":
					names, args := answerCalls(t, resp, body)
					if resp.StatusCode != 200 || len(names) == 0 || names[0] != "get_delivery_status" || json.Valid([]byte(args[0])) {
						t.Errorf("status %d, calls %q with arguments %q: want the model's own get_delivery_status call, its arguments not JSON", resp.StatusCode, names, args)
					}
				case "loop":
					names, args := answerCalls(t, resp, body)
					if resp.StatusCode != 200 || len(names) != 1 || names[0] != "get_order" || args[0] != `{"order_id":"DR-123456"}` {
						t.Errorf("status %d, calls %q %q: want get_order({\"order_id\":\"DR-123456\"}) again, the previous call", resp.StatusCode, names, args)
					}
				}
				evs := s.stop()
				faults := kinds(evs, event.Fault)
				if len(faults) != 1 || faults[0].Fault != kind || faults[0].Proxy == nil || faults[0].Proxy.Stream != stream {
					t.Fatalf("fault events %+v: want one %s on the request (stream %v)", faults, kind, stream)
				}
				tally := scoring.NewProxyTally()
				for _, e := range evs {
					tally.Add(e)
				}
				if m := tally.Models[fakemodel.ModelMini]; m == nil || m.Calls != 1 || m.Faults != 1 {
					t.Errorf("tally %+v: want 1 call on %s, faulted", m, fakemodel.ModelMini)
				}
			})
		}
	}
}

// A request the chat fault cannot change (no tool offered, no earlier tool
// call) passes unchanged and is not counted as faulted.
func TestProxyChatFaultSparesRequestsItCannotChange(t *testing.T) {
	for _, kind := range []string{"malformed-tool-call", "loop"} {
		s := start(t, Options{Windows: []event.Window{{FaultSpec: event.FaultSpec{Kind: kind}, From: 0, To: time.Hour}}})
		resp, err := http.Post(s.url+"/chat/completions", "application/json",
			strings.NewReader(`{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"ping"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		evs := s.stop()
		if resp.StatusCode != 200 || len(kinds(evs, event.Fault)) != 0 {
			t.Errorf("%s: status %d, %d fault events: want 200 and none", kind, resp.StatusCode, len(kinds(evs, event.Fault)))
		}
	}
}
