package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/tools"
	"github.com/drill-dev/drill/scoring"
)

// scriptAgent is a minimal agent model for the engine's tests, speaking the
// OpenAI streaming protocol: interpret (tool_choice none), get_order,
// get_delivery_status, answer. repeat makes it ask for its previous tool
// call again, as a looping model does.
type scriptAgent struct {
	repeat bool
	answer string
}

func (s scriptAgent) RoundTrip(req *http.Request) (*http.Response, error) {
	var body struct {
		Messages []struct {
			Role      string `json:"role"`
			ToolCalls []struct {
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		ToolChoice any `json:"tool_choice"`
	}
	if err := json.NewDecoder(req.Body).Decode(&body); err != nil {
		return nil, err
	}
	req.Body.Close()
	var lastCall string
	for _, m := range body.Messages {
		if m.Role == "assistant" && len(m.ToolCalls) > 0 {
			lastCall = m.ToolCalls[0].Function.Name
		}
	}
	var chunks []string
	delta := func(d string) {
		chunks = append(chunks, `{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":`+d+`}]}`)
	}
	call := func(name string) {
		delta(`{"tool_calls":[{"index":0,"id":"call_` + name + `","type":"function","function":{"name":"` + name + `","arguments":""}}]}`)
		delta(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"order_id\":"}}]}`)
		delta(`{"tool_calls":[{"index":0,"function":{"arguments":"\"DR-1\"}"}}]}`)
	}
	switch {
	case body.ToolChoice == "none":
		delta(`{"content":"The customer asks where order DR-1 is."}`)
	case s.repeat && lastCall != "":
		call(lastCall)
	case lastCall == "":
		call(tools.GetOrder)
	case lastCall == tools.GetOrder:
		call(tools.GetDeliveryStatus)
	default:
		a := s.answer
		if a == "" {
			a = "Your parcel arrives tomorrow."
		}
		delta(`{"content":` + fmt.Sprintf("%q", a) + `}`)
	}
	return sseResponse(req, chunks), nil
}

// sseResponse is a 200 streaming chunks, then a usage chunk and [DONE].
func sseResponse(req *http.Request, chunks []string) *http.Response {
	chunks = append(chunks, `{"id":"c","object":"chat.completion.chunk","model":"m","choices":[],"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}}`)
	var b bytes.Buffer
	for _, c := range chunks {
		b.WriteString("data: " + c + "\n\n")
	}
	b.WriteString("data: [DONE]\n\n")
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(&b), Request: req}
}

// runChat runs cfg in a bubble and folds its log.
func runChat(t *testing.T, cfg Config) (scoring.ChatSummary, []event.Event) {
	t.Helper()
	var sum scoring.ChatSummary
	var events []event.Event
	synctest.Test(t, func(t *testing.T) {
		r, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r.Start(context.Background())
		events = r.Log().Events()
		sum = scoring.FoldChat(events)
	})
	return sum, events
}

func quietConfig(conversations int, policy string) Config {
	cfg := DefaultConfig()
	cfg.Conversations = conversations
	cfg.Profile, _ = IncidentProfile(IncidentNone)
	cfg.Profile.Primary.Normal, cfg.Profile.Fallback.Normal = Rates{}, Rates{}
	cfg.Policy, _ = Preset(policy)
	cfg.Models, cfg.Tools = scriptAgent{}, tools.NewInProcess(emails.All(), 0, nil)
	return cfg
}

func TestGoodConversationsTakeFourModelCalls(t *testing.T) {
	sum, _ := runChat(t, quietConfig(20, PresetDefaults))
	if sum.Conversations != 20 || sum.Answered != 20 || sum.Silent != 0 || sum.HandedOver != 0 {
		t.Fatalf("want 20 answered, got %+v", sum)
	}
	if sum.ModelCalls != 80 || sum.ToolCalls != 40 {
		t.Errorf("want 4 model calls and 2 tool calls each, got %d and %d", sum.ModelCalls, sum.ToolCalls)
	}
	if sum.TokensBilled != 80*120 {
		t.Errorf("tokens billed %d, want %d", sum.TokensBilled, 80*120)
	}
}

func TestLoopingModelReachesTheTurnLimitSilently(t *testing.T) {
	cfg := quietConfig(3, PresetDefaults)
	cfg.Models = scriptAgent{repeat: true}
	sum, _ := runChat(t, cfg)
	if sum.Silent != 3 || sum.TurnLimit != 3 {
		t.Fatalf("want 3 silent turn-limit endings, got %+v", sum)
	}
	if sum.ModelCalls != 30 {
		t.Errorf("model calls %d, want the 10-turn limit's 30", sum.ModelCalls)
	}
}

func TestLoopGuardHandsOver(t *testing.T) {
	cfg := quietConfig(3, PresetDefaults)
	cfg.Policy = cfg.Policy.WithLoopGuard()
	cfg.Models = scriptAgent{repeat: true}
	sum, events := runChat(t, cfg)
	if sum.HandedOver != 3 || sum.Stopped[event.StopLoop] != 3 {
		t.Fatalf("want 3 handovers for the loop, got %+v", sum)
	}
	// interpret, get_order, get_order again, and the third identical call.
	if sum.ModelCalls != 12 {
		t.Errorf("model calls %d, want 4 a conversation", sum.ModelCalls)
	}
	var state *event.HandoverState
	for _, e := range events {
		if e.Kind == event.ConversationHandover {
			state = e.Chat.State
		}
	}
	if state == nil || state.Reason != event.StopLoop || len(state.Attempted) != 2 || state.Found[tools.GetOrder] == "" {
		t.Errorf("handover state %+v: want the loop, two attempted calls and the order found", state)
	}
}

func TestBudgetHandsOverWhatEndsWithoutAnAnswer(t *testing.T) {
	cfg := quietConfig(2, PresetDefaults)
	cfg.Policy = cfg.Policy.WithBudget()
	cfg.Models = scriptAgent{repeat: true}
	sum, _ := runChat(t, cfg)
	if sum.HandedOver != 2 || sum.Silent != 0 || sum.TurnLimit != 2 {
		t.Fatalf("want both handed over at the turn limit, got %+v", sum)
	}
}

func TestSlowStreamAbortedAndRetriedOnTheFallback(t *testing.T) {
	cfg := quietConfig(1, PresetDefaults)
	cfg.Policy = cfg.Policy.WithStreamCheck()
	cfg.Models = scriptAgent{answer: strings.Repeat("a long answer ", 100)}
	cfg.Profile.Primary.Normal = Rates{Slow: 1}
	cfg.Profile.Faults = map[string]event.FaultSpec{ClassSlow: {Kind: "trickle", Params: map[string]string{"tokens_per_s": "2"}}}
	sum, _ := runChat(t, cfg)
	if sum.Answered != 1 || sum.Aborted == 0 || sum.FallbackCalls == 0 {
		t.Fatalf("want the slow primary aborted and the fallback to answer, got %+v", sum)
	}
	if sum.TimeMaxS > 60 {
		t.Errorf("conversation took %gs: the check should cut each slow stream at 3 s", sum.TimeMaxS)
	}
}

func TestSDKDefaultsReadFromTheSDK(t *testing.T) {
	d := SDKDefaults()
	if d.Retries != 2 || d.RequestTimeout != 0 {
		t.Errorf("openai-go defaults %+v: want 2 retries and no time limit", d)
	}
}

func TestPresetsValidate(t *testing.T) {
	for _, name := range PresetNames() {
		p, err := Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	all, _ := Preset(PresetAllChecks)
	if !all.Breaker.CountInvalid || !all.Breaker.CountSlowStream || !all.Budget.On() || all.LoopGuard != 3 || all.Validity != 2 {
		t.Errorf("all checks: %+v", all)
	}
	if _, err := Preset("agent-defualts"); err == nil || !strings.Contains(err.Error(), "agent-defaults") {
		t.Errorf("a misspelt preset: %v", err)
	}

}
