package scoring

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
)

func chatEvents() []event.Event {
	s := time.Second
	return []event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Workload: "chat", Outage: "mixed", Policy: "agent-breaker", Seed: 7, Options: []string{"status breaker"}}},
		{Kind: event.RunClock, Detail: event.ClockVirtual},
		{At: 0, Kind: event.ConversationStart, Chat: &event.Chat{Conversation: 1}},
		{At: 1 * s, Kind: event.ConversationStart, Chat: &event.Chat{Conversation: 2}},
		{At: 2 * s, Kind: event.ModelAttempt, Rung: "primary", Model: "m", Fault: "overloaded", Outcome: event.HTTP5xx, Chat: &event.Chat{Conversation: 2, Turn: 1, Elapsed: s, Step: event.StepFailed}},
		{At: 3 * s, Kind: event.ModelAttempt, Rung: "primary", Model: "m", Outcome: event.OK, Chat: &event.Chat{Conversation: 2, Turn: 1, Elapsed: 2 * s, Step: event.StepInterpret, PromptTokens: 100, CompletionTokens: 10}},
		{At: 3 * s, Kind: event.ModelCall, Rung: "primary", Chat: &event.Chat{Conversation: 2, Turn: 1, Elapsed: 2 * s, Step: event.StepInterpret, PromptTokens: 100, CompletionTokens: 10}},
		{At: 4 * s, Kind: event.ModelCall, Rung: "fallback", Chat: &event.Chat{Conversation: 1, Turn: 1, Elapsed: 4 * s, Step: event.StepAnswer, PromptTokens: 50, CompletionTokens: 5}},
		{At: 4 * s, Kind: event.BreakerChange, Breaker: &event.BreakerState{Name: "primary", From: "closed", To: "open"}},
		{At: 5 * s, Kind: event.ToolCall, Outcome: event.BreakerOpen, Chat: &event.Chat{Conversation: 2, Turn: 2, Elapsed: 4 * s, Tool: "get_delivery_status", Dependency: "carrier"}},
		{At: 5 * s, Kind: event.ConversationEnd, Chat: &event.Chat{Conversation: 1, Elapsed: 5 * s, Ending: event.EndingAnswered, Turns: 1, PromptTokens: 50, CompletionTokens: 5}},
		{At: 150 * s, Kind: event.ConversationEnd, Chat: &event.Chat{Conversation: 2, Elapsed: 149 * s, Ending: event.EndingSilent, Reason: event.StopTurnLimit, Turns: 10, PromptTokens: 100, CompletionTokens: 10}},
		{At: 150 * s, Kind: event.RunEnd, Detail: event.StatusCompleted},
	}
}

func TestChatFoldFigures(t *testing.T) {
	s := FoldChat(chatEvents())
	want := ChatSummary{Workload: "chat", Incident: "mixed", Policy: "agent-breaker", Seed: 7, Clock: event.ClockVirtual,
		Status: event.StatusCompleted, Checks: []string{"status breaker"}, Conversations: 2, Answered: 1, Silent: 1, TurnLimit: 1,
		Stopped: map[string]int{event.StopTurnLimit: 1},
		Stops:   []ChatStop{{Check: "none: answered", Answered: 1}, {Reason: event.StopTurnLimit, Check: "turn limit", Silent: 1}}, TimeP50S: 77, TimeP95S: 141.8, TimeP99S: 147.6, TimeMaxS: 149, Over120s: 1,
		PromptTokens: 150, CompletionTokens: 15, TokensBilled: 165, ModelCalls: 2, ModelAttempts: 2, FallbackCalls: 1,
		ToolCalls: 1, ToolsRefused: 1, BreakerOpens: map[string]int{"primary": 1}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("got  %+v\nwant %+v", s, want)
	}
	if !IsChat(chatEvents()) || IsChat(chatEvents()[1:]) {
		t.Error("IsChat reads the run_start's workload")
	}
}

func TestChatFoldTraceAndRows(t *testing.T) {
	f := NewChatFold(2)
	for _, e := range chatEvents() {
		f.Add(e)
	}
	tr := f.Trace()
	var outcomes []string
	for _, st := range tr {
		outcomes = append(outcomes, st.Outcome)
	}
	if got := strings.Join(outcomes, ","); got != "overloaded,ok,breaker_open,silent (turn limit)" {
		t.Errorf("trace outcomes %s", got)
	}
	rows := f.Rows()
	if len(rows) != 2 || rows[1].Time != 149*time.Second || rows[1].Turns != 10 || rows[0].Ending != event.EndingAnswered {
		t.Errorf("rows %+v", rows)
	}
	if tr, ok := f.TraceOf(); !ok || tr.Conversation.ID != 2 || tr.Handover != nil {
		t.Errorf("trace of a silent conversation: %+v", tr)
	}
	h := NewChatFold(2)
	for _, e := range chatEvents() {
		if e.Kind == event.ConversationEnd && e.Chat.Conversation == 2 {
			h.Add(event.Event{Kind: event.ConversationHandover, Chat: &event.Chat{Conversation: 2, State: &event.HandoverState{Reason: event.StopLoop, Told: "told"}}})
		}
		h.Add(e)
	}
	if tr, _ := h.TraceOf(); tr.Handover == nil || tr.Handover.Reason != event.StopLoop {
		t.Errorf("the trace keeps no handover: %+v", tr)
	}
	bars := Chart(rows)
	if len(bars) != 1 || bars[0].Slowest != 149*time.Second || bars[0].Silent != 1 {
		t.Errorf("chart %+v", bars)
	}
}

// Every key of the chat summary's JSON is documented in docs/keys.md.
func TestEveryChatSummaryKeyIsDocumented(t *testing.T) {
	b, err := os.ReadFile("../docs/keys.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[ChatSummary](), reflect.TypeFor[ChatTrace]()} {
		for _, p := range keyPaths(typ, "") {
			if !strings.Contains(string(b), "| `"+p+"`") {
				t.Errorf("chat key %q (%s) is not documented as a table row", p, typ.Name())
			}
		}
	}
}

func TestBreakerOpensTotal(t *testing.T) {
	s := ChatSummary{BreakerOpens: map[string]int{"primary": 2, "carrier": 3}}
	if got := s.BreakerOpensTotal(); got != 5 {
		t.Errorf("total %d, want 5", got)
	}
	if got := (ChatSummary{}).BreakerOpensTotal(); got != 0 {
		t.Errorf("none: %d, want 0", got)
	}
}

// TestChatChecks: checks on a chat drill name the chat figures (a map's
// keys, and breaker_opens as the sum over breakers); a triage figure is
// unknown there, with a suggestion.
func TestChatChecks(t *testing.T) {
	s := ChatSummary{Conversations: 10, Answered: 7, Silent: 2, HandedOver: 1, TimeP99S: 130,
		Stopped: map[string]int{"turn limit": 2}, BreakerOpens: map[string]int{"primary": 2, "carrier": 1}}
	hyps, err := ParseChatExprs([]string{"silent == 0", "breaker_opens >= 3", "breaker_opens.carrier == 1", "stopped.turn limit <= 2", "time_p99_s < 120"})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := JudgeChat(s, hyps)
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{false, true, true, true, false}
	for i, v := range vs {
		if v.Pass != want[i] {
			t.Errorf("%s: pass %v (measured %v), want %v", v.Expr, v.Pass, v.Value, want[i])
		}
	}
	if _, err := ParseChatExpr("served.error == 0"); err == nil {
		t.Error("a triage figure parsed as a chat figure")
	}
	if _, err := ParseChatExpr("silnt == 0"); err == nil || !strings.Contains(err.Error(), `did you mean "silent"`) {
		t.Errorf("a misspelt chat figure: %v", err)
	}
	if _, err := ParseExpr("silent == 0"); err == nil {
		t.Error("a chat figure parsed as a triage figure")
	}
}

// TestModelCallsAreTurns: a stream the stream-rate check aborts and the
// call retries on the fallback is one model call (its retry), not two.
func TestModelCallsAreTurns(t *testing.T) {
	s := time.Second
	evs := []event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Workload: "chat", Outage: "mixed", Policy: "agent-all-checks"}},
		{At: 0, Kind: event.ConversationStart, Chat: &event.Chat{Conversation: 1}},
		{At: 3 * s, Kind: event.ModelCall, Rung: "primary", Chat: &event.Chat{Conversation: 1, Turn: 1, Step: event.StepAborted}},
		{At: 5 * s, Kind: event.ModelCall, Rung: "fallback", Chat: &event.Chat{Conversation: 1, Turn: 1, Step: event.StepInterpret}},
		{At: 6 * s, Kind: event.ModelCall, Rung: "fallback", Chat: &event.Chat{Conversation: 1, Turn: 2, Step: event.StepToolCall}},
	}
	if got := FoldChat(evs); got.ModelCalls != 2 || got.Aborted != 1 || got.FallbackCalls != 2 {
		t.Errorf("model calls %d, aborted %d, on the fallback %d; want 2 turns, 1 abort, 2 fallback streams", got.ModelCalls, got.Aborted, got.FallbackCalls)
	}
}
