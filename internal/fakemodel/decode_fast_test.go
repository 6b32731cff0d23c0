package fakemodel

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/tools"
	"github.com/drill-dev/drill/internal/triage"
)

// agreement counts what the request path did with every body the server
// decoded while the package's tests ran, and where the fast path and the
// strict validator disagreed.
var agreement struct {
	sync.Mutex
	fast, declined int
	disagreements  []string
}

// compareDecoders is the server's decoding hook in tests: every body the
// fast path took must be accepted by DecodeRequest with the same result.
func compareDecoders(body []byte, fast *ChatRequest) {
	if fast == nil {
		agreement.Lock()
		agreement.declined++
		agreement.Unlock()
		return
	}
	strict, apiErr := DecodeRequest(body)
	agreement.Lock()
	defer agreement.Unlock()
	agreement.fast++
	switch {
	case apiErr != nil:
		agreement.disagreements = append(agreement.disagreements,
			fmt.Sprintf("the fast path took %.300q; DecodeRequest refused it: %s", body, apiErr.Message))
	case !reflect.DeepEqual(fast, strict):
		agreement.disagreements = append(agreement.disagreements,
			fmt.Sprintf("%.300q: the fast path decoded %+v, DecodeRequest %+v", body, *fast, *strict))
	}
}

// TestMain runs every test of the package (the fidelity suite included)
// with the decoding hook on, and fails the run if the fast path and the
// strict validator disagreed on any request the tests sent. Benchmarks run
// without the hook, which would double what they measure.
func TestMain(m *testing.M) {
	flag.Parse()
	if flag.Lookup("test.bench").Value.String() == "" {
		fastDecodeChecked = compareDecoders
	}
	code := m.Run()
	if len(agreement.disagreements) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the fast decoder and DecodeRequest disagreed on %d of %d requests:\n",
			len(agreement.disagreements), agreement.fast)
		for i, d := range agreement.disagreements {
			if i == 5 {
				fmt.Fprintln(os.Stderr, "  ...")
				break
			}
			fmt.Fprintln(os.Stderr, "  "+d)
		}
		code = 1
	}
	os.Exit(code)
}

// sdkBodies returns the bodies openai-go sends for drill's triage
// requests: every email to every model, plain, streamed with and without
// usage, with a token limit and with n. They are captured on the way to
// the in-process server, which answers each one.
func sdkBodies(t *testing.T) [][]byte {
	t.Helper()
	var (
		mu     sync.Mutex
		bodies [][]byte
	)
	srv := New(Options{NoLatency: true})
	capture := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		rc, err := r.GetBody()
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(rc)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		bodies = append(bodies, b)
		mu.Unlock()
		return srv.Transport().RoundTrip(r)
	})
	c := openai.NewClient(option.WithBaseURL("http://fake/v1/"), option.WithAPIKey("k"),
		option.WithHTTPClient(&http.Client{Transport: capture}), option.WithMaxRetries(0))
	ctx := context.Background()
	for _, model := range Models() {
		for i, e := range emails.All() {
			p := triage.Params(model, e)
			switch i % 4 {
			case 1:
				p.MaxCompletionTokens = openai.Int(int64(5 + i))
			case 2:
				p.N = openai.Int(2)
			}
			if _, err := c.Chat.Completions.New(ctx, p); err != nil {
				t.Fatalf("email %d, %s: %v", e.ID, model, err)
			}
			if i%3 == 0 {
				if i%2 == 0 {
					p.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
				}
				s := c.Chat.Completions.NewStreaming(ctx, p)
				for s.Next() {
				}
				if err := s.Err(); err != nil {
					t.Fatalf("email %d, %s, streamed: %v", e.ID, model, err)
				}
			}
		}
	}
	return bodies
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestFastDecodeTakesSDKShapes checks that the fast path decodes every
// request openai-go sends for drill, exactly as DecodeRequest does: if it
// declined them, the request path would gain nothing.
func TestFastDecodeTakesSDKShapes(t *testing.T) {
	bodies := sdkBodies(t)
	if len(bodies) < 2*len(emails.All()) {
		t.Fatalf("captured %d bodies", len(bodies))
	}
	streamed := 0
	for _, body := range bodies {
		fast, ok := decodeFast(body)
		if !ok {
			t.Fatalf("the fast path declined an SDK request: %.400s", body)
		}
		strict, apiErr := DecodeRequest(body)
		if apiErr != nil {
			t.Fatalf("DecodeRequest refused an SDK request: %s", apiErr.Message)
		}
		if !reflect.DeepEqual(fast, strict) {
			t.Fatalf("%.300s: fast %+v, strict %+v", body, *fast, *strict)
		}
		if fast.Stream {
			streamed++
		}
	}
	if streamed == 0 {
		t.Error("no streamed request was captured")
	}
}

// agentSDKBodies returns the bodies openai-go sends for the chat agent's
// conversations, built as internal/chat builds them: the tool definitions,
// tool_choice "none" on the first call and "auto" after (and, on some
// conversations, "required", a named function, allowed_tools and
// parallel_tool_calls false), the assistant's tool calls (content left
// out) and the tool results, streamed with usage and a token limit or not.
// Each conversation is answered by the in-process server until the agent
// replies.
func agentSDKBodies(t *testing.T) [][]byte {
	t.Helper()
	var (
		mu     sync.Mutex
		bodies [][]byte
	)
	srv := New(Options{NoLatency: true})
	capture := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		rc, err := r.GetBody()
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(rc)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		bodies = append(bodies, b)
		mu.Unlock()
		return srv.Transport().RoundTrip(r)
	})
	c := openai.NewClient(option.WithBaseURL("http://fake/v1/"), option.WithAPIKey("k"),
		option.WithHTTPClient(&http.Client{Transport: capture}), option.WithMaxRetries(0))
	ctx := context.Background()
	// A tool result with quotes, escapes and non-ASCII text, as a service
	// error or a product name may carry.
	result := func(name, args string) string {
		return fmt.Sprintf(`{"tool":%q,"arguments":%q,"note":"Größe \"L\"\n\ttab — ✓ \u00e9"}`, name, args)
	}
	for i, e := range emails.All()[:16] {
		msgs := []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("You are the shop's support agent.\nUse the tools."),
			openai.UserMessage(e.Text()),
		}
		for turn := 0; turn < 6; turn++ {
			p := openai.ChatCompletionNewParams{Model: Models()[i%len(Models())], Messages: msgs, Tools: tools.Definitions()}
			switch {
			case turn == 0:
				p.ToolChoice.OfAuto = openai.String("none")
			case i%5 == 1:
				p.ToolChoice.OfAuto = openai.String("required")
			case i%5 == 2:
				p.ToolChoice = openai.ToolChoiceOptionFunctionToolChoice(openai.ChatCompletionNamedToolChoiceFunctionParam{Name: tools.GetOrder})
			case i%5 == 3:
				p.ToolChoice.OfAllowedTools = &openai.ChatCompletionAllowedToolChoiceParam{AllowedTools: openai.ChatCompletionAllowedToolsParam{
					Mode:  openai.ChatCompletionAllowedToolsModeAuto,
					Tools: []map[string]any{{"type": "function", "function": map[string]any{"name": tools.GetDeliveryStatus}}},
				}}
			default:
				p.ToolChoice.OfAuto = openai.String("auto")
			}
			if i%4 == 1 {
				p.ParallelToolCalls = openai.Bool(false)
			}
			if i%3 == 2 {
				p.MaxCompletionTokens = openai.Int(400)
			}
			var msg openai.ChatCompletionMessage
			if i%2 == 0 {
				p.StreamOptions.IncludeUsage = openai.Bool(true)
				s := c.Chat.Completions.NewStreaming(ctx, p)
				var acc openai.ChatCompletionAccumulator
				for s.Next() {
					acc.AddChunk(s.Current())
				}
				if err := s.Err(); err != nil {
					t.Fatalf("email %d, turn %d: %v", e.ID, turn, err)
				}
				msg = acc.Choices[0].Message
			} else {
				resp, err := c.Chat.Completions.New(ctx, p)
				if err != nil {
					t.Fatalf("email %d, turn %d: %v", e.ID, turn, err)
				}
				msg = resp.Choices[0].Message
			}
			if len(msg.ToolCalls) == 0 {
				msgs = append(msgs, openai.AssistantMessage(msg.Content))
				if turn > 0 {
					break
				}
				continue
			}
			calls := make([]openai.ChatCompletionMessageToolCallUnionParam, len(msg.ToolCalls))
			for j, tc := range msg.ToolCalls {
				calls[j] = openai.ChatCompletionMessageToolCallUnionParam{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID: tc.ID, Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Function.Name, Arguments: tc.Function.Arguments}}}
			}
			msgs = append(msgs, openai.ChatCompletionMessageParamUnion{OfAssistant: &openai.ChatCompletionAssistantMessageParam{ToolCalls: calls}})
			for _, tc := range msg.ToolCalls {
				msgs = append(msgs, openai.ToolMessage(result(tc.Function.Name, tc.Function.Arguments), tc.ID))
			}
		}
	}
	return bodies
}

// TestFastDecodeTakesAgentShapes checks that the fast path decodes every
// request openai-go sends for the chat agent, exactly as DecodeRequest
// does, and that the conversations reached tool calls and their results.
func TestFastDecodeTakesAgentShapes(t *testing.T) {
	bodies := agentSDKBodies(t)
	var withCalls, withResults int
	for _, body := range bodies {
		fast, ok := decodeFast(body)
		if !ok {
			t.Fatalf("the fast path declined an SDK request: %s", body)
		}
		strict, apiErr := DecodeRequest(body)
		if apiErr != nil {
			t.Fatalf("DecodeRequest refused an SDK request: %s", apiErr.Message)
		}
		if !reflect.DeepEqual(fast, strict) {
			t.Fatalf("%.300s: fast %+v, strict %+v", body, *fast, *strict)
		}
		for _, m := range fast.Messages {
			if len(m.ToolCalls) > 0 {
				withCalls++
			}
			if m.Role == "tool" {
				withResults++
			}
		}
	}
	if withCalls == 0 || withResults == 0 {
		t.Errorf("%d requests: %d assistant messages with tool calls, %d tool messages", len(bodies), withCalls, withResults)
	}
	t.Logf("%d requests: %d assistant messages with tool calls, %d tool messages", len(bodies), withCalls, withResults)
}

// fastEdgeCases are bodies near the edge of what the fast path takes: each
// must be decoded as DecodeRequest does or left to it.
var fastEdgeCases = []string{
	`{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"hi"}]}`,
	` {"messages":[{"content":"hi","role":"user"}] , "model":"gpt-5.4-mini" } `,
	`{"model":"m","messages":[{"role":"user","content":"a\"b\\c\/d\b\f\n\r\t\u00e9\u20ac\ud83d\ude00 <&> \u003c"}]}`,
	`{"model":"m","messages":[{"role":"user","content":"lone \ud83d surrogate"}]}`,
	`{"model":"m","messages":[{"role":"user","content":"low first \ude00\ud83d"}]}`,
	`{"model":"m","messages":[{"role":"user","content":"bad \x escape"}]}`,
	"{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"invalid \xff utf-8\"}]}",
	"{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"raw \x01 control\"}]}",
	`{"model":"m","messages":[{"role":"user","content":"héllo ünïcode ✓"}]}`,
	`{"model":"m","model":"n","messages":[{"role":"user","content":"dup"}]}`,
	`{"model":"m","messages":[{"role":"user","role":"system","content":"dup role"}]}`,
	`{"mod\u0065l":"m","messages":[{"role":"user","content":"escaped key"}]}`,
	`{"model":"m","messages":[{"role":"tool","content":"tool"}]}`,
	`{"model":"m","messages":[{"role":"user","content":"x","name":"n"}]}`,
	`{"model":"m","messages":[{"role":"assistant","content":null}]}`,
	`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"parts"}]}]}`,
	`{"model":"","messages":[{"role":"user","content":"x"}]}`,
	`{"model":"m","messages":[]}`,
	`{"model":"m"}`,
	`{}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}]} trailing`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"n":3,"max_tokens":9,"max_completion_tokens":7}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"max_tokens":5,"max_completion_tokens":7}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"n":0}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"n":129}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"n":2.0}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"n":02}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"n":-1}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"max_tokens":99999999999}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"stream":true,"stream_options":{"include_usage":true}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"stream_options":{"include_usage":true},"stream":true}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"stream_options":{"include_usage":true}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"stream":false,"stream_options":{}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"stream":null}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"text"}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_object"}}`,
	`{"model":"m","messages":[{"role":"user","content":"answer in JSON"}],"response_format":{"type":"json_object"}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":null}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":"text"}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"a","strict":true,"schema":{"type":"object","properties":{"intent":{"type":"string"}}}}}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"a","strict":true,"schema":{"type":"object","properties":{"intent":{"type":"string"}},"required":["intent"],"additionalProperties":false}}}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"a","schema":{"type":"object","properties":{"a\"}":{"type":"string"}}}}}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"a"}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema"]}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"temperature":0.5}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"tools":[]}`,
}

// edgeTools are the tools of fastToolCases, in the SDK's key order.
const edgeTools = `"tools":[{"function":{"name":"get_order","parameters":{"type":"object","properties":{"order_id":{"type":"string"}}}},"type":"function"},{"function":{"name":"get_delivery_status","description":"Where a parcel is."},"type":"function"}]`

// toolCase is a request offering edgeTools with the given messages (after
// a user's) and other top-level members.
func toolCase(msgs, more string) string {
	if more != "" {
		more = "," + more
	}
	return `{"messages":[{"content":"Where is order DR-104233?","role":"user"}` + msgs + `],"model":"gpt-5.4-mini",` + edgeTools + more + `}`
}

// edgeCall is an assistant message calling get_order with id, and a tool
// message answering it.
const (
	edgeCall   = `,{"tool_calls":[{"id":"call_1","function":{"arguments":"{\"order_id\":\"DR-104233\"}","name":"get_order"},"type":"function"}],"role":"assistant"}`
	edgeAnswer = `,{"content":"{\"status\":\"shipped\"}","tool_call_id":"call_1","role":"tool"}`
)

// fastToolCases are tool-calling bodies near the edge of what the fast
// path takes; the first fastToolTaken are shapes openai-go sends (with
// escapes, Unicode, the object forms of tool_choice, a null content as
// other clients send) and must be taken.
var fastToolCases = []string{
	toolCase(edgeCall+edgeAnswer, `"tool_choice":"auto","stream":true,"stream_options":{"include_usage":true}`),
	toolCase(`,{"content":null,"role":"assistant","tool_calls":[{"type":"function","id":"c\"2","function":{"name":"get_delivery_status","arguments":"{\"order_id\":\"DR-104233\",\"note\":\"\\u00e9 caf\u00e9 \\\" \u2713\\n\"}"}}]},{"role":"tool","content":"Gr\u00f6\u00dfe \"L\" \ud83d\ude00 ✓\n","tool_call_id":"c\"2"}`,
		`"tool_choice":{"type":"function","function":{"name":"get_order"}},"parallel_tool_calls":false`),
	toolCase(edgeCall+edgeAnswer+`,{"content":"Your parcel is on its way.","role":"assistant"}`,
		`"tool_choice":{"type":"allowed_tools","allowed_tools":{"mode":"required","tools":[{"type":"function","function":{"name":"get_delivery_status"}}]}},"max_completion_tokens":50`),
	toolCase(`,{"tool_calls":[{"id":"a","function":{"arguments":"{}","name":"get_order"},"type":"function"},{"id":"b","function":{"arguments":"{}","name":"get_delivery_status"},"type":"function"}],"role":"assistant"},{"content":"{}","tool_call_id":"b","role":"tool"},{"content":"{}","tool_call_id":"a","role":"tool"}`,
		`"tool_choice":"required","parallel_tool_calls":true`),
	toolCase(`,{"content":"Looking.","tool_calls":[],"role":"assistant"}`, `"tool_choice":"none"`),
	toolCase(`,{"tool_calls":[{"id":"a","function":{"name":"get_order"},"type":"function"}],"role":"assistant"},{"content":"","tool_call_id":"a","role":"tool"}`, ""),
	toolCase(`,{"tool_calls":[{"id":"a","function":{"name":"get_\u006frder","arguments":""},"type":"function"}],"role":"assistant"},{"content":"x","tool_call_id":"\u0061","role":"tool"}`, `"tool_choice":"\u0061uto"`),
	// Nulls where the SDK leaves a member out.
	toolCase("", `"tools":null`),
	toolCase("", `"tool_choice":null`),
	toolCase("", `"parallel_tool_calls":null`),
	toolCase(`,{"tool_calls":null,"role":"assistant","content":"x"}`, ""),
	toolCase(edgeCall+`,{"content":"x","tool_call_id":null,"role":"tool"}`, ""),
	toolCase(edgeCall+`,{"content":null,"tool_call_id":"call_1","role":"tool"}`, ""),
	toolCase(`,{"content":null,"role":"user"}`, ""),
	toolCase(`,{"role":"assistant"}`, ""),
	// Members where OpenAI does not allow them, or ignores them.
	toolCase(`,{"content":"x","role":"user","tool_calls":[]}`, ""),
	toolCase(`,{"content":"x","role":"user","tool_calls":[{"id":"a","function":{"name":"get_order"},"type":"function"}]}`, ""),
	toolCase(`,{"content":"x","role":"user","tool_call_id":"a"}`, ""),
	toolCase(edgeCall+`,{"content":"x","role":"assistant","tool_call_id":"call_1"}`+edgeAnswer, ""),
	toolCase(edgeCall+`,{"content":"x","role":"tool","tool_call_id":"call_1","tool_calls":[]}`, ""),
	toolCase(edgeCall+`,{"content":[{"type":"text","text":"parts"}],"role":"tool","tool_call_id":"call_1"}`, ""),
	toolCase(`,{"refusal":"no","role":"assistant","content":"x"}`, ""),
	// The order of calls and results.
	toolCase(edgeAnswer, ""),
	toolCase(edgeCall, ""),
	toolCase(edgeCall+`,{"content":"x","role":"user"}`, ""),
	toolCase(edgeCall+`,{"content":"x","tool_call_id":"call_2","role":"tool"}`, ""),
	toolCase(edgeCall+edgeAnswer+edgeAnswer, ""),
	toolCase(`,{"tool_calls":[{"id":"a","function":{"name":"get_order"},"type":"function"},{"id":"a","function":{"name":"get_order"},"type":"function"}],"role":"assistant"},{"content":"x","tool_call_id":"a","role":"tool"}`, ""),
	// Tool calls the strict path decodes otherwise or refuses.
	toolCase(`,{"tool_calls":[{"id":"a","id":"b","function":{"name":"get_order"},"type":"function"}],"role":"assistant"},{"content":"x","tool_call_id":"b","role":"tool"}`, ""),
	toolCase(`,{"tool_calls":[{"ID":"a","function":{"name":"get_order"},"type":"function"}],"role":"assistant"},{"content":"x","tool_call_id":"a","role":"tool"}`, ""),
	toolCase(`,{"tool_calls":[{"id":"a","function":{"Name":"get_order"},"type":"function"}],"role":"assistant"},{"content":"x","tool_call_id":"a","role":"tool"}`, ""),
	toolCase(`,{"tool_calls":[{"id":"a","function":{"name":"get_order"},"type":"Function"}],"role":"assistant"},{"content":"x","tool_call_id":"a","role":"tool"}`, ""),
	toolCase(`,{"tool_calls":[{"id":"a","function":{"name":"get_order"},"type":"functio\u006e"}],"role":"assistant"},{"content":"x","tool_call_id":"a","role":"tool"}`, ""),
	toolCase(`,{"tool_calls":[{"id":"","function":{"name":"get_order"},"type":"function"}],"role":"assistant"},{"content":"x","tool_call_id":"","role":"tool"}`, ""),
	toolCase(`,{"tool_calls":[{"id":"a","type":"function"}],"role":"assistant"},{"content":"x","tool_call_id":"a","role":"tool"}`, ""),
	toolCase(`,{"tool_calls":[{"id":"a","function":{},"type":"function"}],"role":"assistant"},{"content":"x","tool_call_id":"a","role":"tool"}`, ""),
	toolCase(`,{"tool_calls":[{"id":"a","function":{"name":"get_order","arguments":5},"type":"function"}],"role":"assistant"},{"content":"x","tool_call_id":"a","role":"tool"}`, ""),
	toolCase(`,{"tool_calls":[{"id":"a","function":{"name":"get_order","arguments":"\ud83d lone"},"type":"function"}],"role":"assistant"},{"content":"x","tool_call_id":"a","role":"tool"}`, ""),
	toolCase(",{\"tool_calls\":[{\"id\":\"a\",\"function\":{\"name\":\"get_order\",\"arguments\":\"bad \xff\"},\"type\":\"function\"}],\"role\":\"assistant\"},{\"content\":\"x\",\"tool_call_id\":\"a\",\"role\":\"tool\"}", ""),
	toolCase(`,{"tool_calls":{"id":"a"},"role":"assistant"}`, ""),
	toolCase(`,{"tool_calls":[{"id":"a","function":{"name":"get_order"},"type":"function"},],"role":"assistant"},{"content":"x","tool_call_id":"a","role":"tool"}`, ""),
	// tool_choice and parallel_tool_calls the strict path refuses.
	toolCase("", `"tool_choice":" auto"`),
	toolCase("", `"tool_choice":"sometimes"`),
	toolCase("", `"tool_choice":{"type":"function","function":{"name":"refund"}}`),
	toolCase("", `"tool_choice":{"type":"function","function":{"name":"get_order"},}`),
	toolCase("", `"tool_choice":{"type":"allowed_tools","allowed_tools":{"mode":"sometimes","tools":[{"type":"function","function":{"name":"get_order"}}]}}`),
	toolCase("", `"tool_choice":5`),
	toolCase("", `"parallel_tool_calls":"no"`),
	toolCase("", `"parallel_tool_calls":0`),
	toolCase("", `"parallel_tool_calls":truex`),
	toolCase("", `"tool_choice":"auto","tool_choice":"none"`),
	// tools the strict path refuses.
	`{"model":"m","messages":[{"role":"user","content":"x"}],"tool_choice":"auto"}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"parallel_tool_calls":false}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f",}}]}`,
	"{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"description\":\"raw \x01\"}}]}",
	`{"model":"m","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f"}},{"type":"function","function":{"name":"f"}}]}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"tools":{"type":"function"}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"tools":"get_order"}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f"}}]]}`,
}

// fastToolTaken is how many of fastToolCases lead the list as shapes the
// fast path must take.
const fastToolTaken = 7

// TestFastDecodeEdgeCases checks the edge cases: the fast path may decline
// any of them, but what it takes it decodes as DecodeRequest does.
func TestFastDecodeEdgeCases(t *testing.T) {
	took := 0
	cases := append(slices.Clip(fastEdgeCases), fastToolCases...)
	for _, s := range cases {
		if checkFastAgrees(t, []byte(s)) {
			took++
		}
	}
	// The first cases, the SDK's plain shapes with escapes and Unicode,
	// must be taken: a fast path that declines everything agrees trivially.
	for _, s := range append(slices.Clip(fastEdgeCases[:3]), fastToolCases[:fastToolTaken]...) {
		if _, ok := decodeFast([]byte(s)); !ok {
			t.Errorf("the fast path declined %s", s)
		}
	}
	t.Logf("the fast path took %d of %d edge cases", took, len(cases))
}

// checkFastAgrees fails t if the fast path takes body and DecodeRequest
// refuses it or decodes it differently; it reports whether it was taken.
func checkFastAgrees(t *testing.T, body []byte) bool {
	t.Helper()
	fast, ok := decodeFast(body)
	if !ok {
		if fast != nil {
			t.Fatalf("%q: declined with a request", body)
		}
		return false
	}
	strict, apiErr := DecodeRequest(body)
	if apiErr != nil {
		t.Fatalf("the fast path took %q; DecodeRequest refused it: %s", body, apiErr.Message)
	}
	if !reflect.DeepEqual(fast, strict) {
		t.Fatalf("%q: fast %+v, strict %+v", body, *fast, *strict)
	}
	return true
}

// FuzzFastDecode checks the fast path against DecodeRequest on any body.
func FuzzFastDecode(f *testing.F) {
	for _, s := range append(slices.Clip(fastEdgeCases), fastToolCases...) {
		f.Add([]byte(s))
	}
	e, _ := emails.ByID(35)
	b, err := json.Marshal(triage.Params(ModelMini, e))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, body []byte) { checkFastAgrees(t, body) })
}
