package scoring

import (
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
)

// TestAnsweredWithoutCountsOnlyADependencyNeverGot: a conversation whose
// carrier call was refused and then answered (the breaker closed) got the
// carrier: it is no "answered without a dependency"; one that never got it
// is.
func TestAnsweredWithoutCountsOnlyADependencyNeverGot(t *testing.T) {
	s := time.Second
	tool := func(conv int, at time.Duration, outcome event.Outcome) event.Event {
		return event.Event{At: at, Kind: event.ToolCall, Outcome: outcome,
			Chat: &event.Chat{Conversation: conv, Tool: "get_delivery_status", Dependency: "carrier"}}
	}
	end := func(conv int) event.Event {
		return event.Event{At: 20 * s, Kind: event.ConversationEnd, Chat: &event.Chat{Conversation: conv, Elapsed: 20 * s, Ending: event.EndingAnswered}}
	}
	events := []event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Workload: "chat"}},
		{Kind: event.ConversationStart, Chat: &event.Chat{Conversation: 1}},
		{Kind: event.ConversationStart, Chat: &event.Chat{Conversation: 2}},
		{Kind: event.ConversationStart, Chat: &event.Chat{Conversation: 3}},
		tool(1, 2*s, event.BreakerOpen), tool(1, 5*s, event.OK), // refused, then got it
		tool(2, 2*s, event.OK), tool(2, 5*s, event.Timeout), // got it, then a later call failed
		tool(3, 2*s, event.BreakerOpen), tool(3, 5*s, event.Timeout), // never got it
		end(1), end(2), end(3),
	}
	f := NewChatFold(0)
	for _, e := range events {
		f.Add(e)
	}
	if got := f.Summary().AnsweredWithout; got != 1 {
		t.Errorf("answered without a dependency: %d, want 1 (conversation 3 alone never got the carrier)", got)
	}
	for _, r := range f.Rows() {
		if want := r.ID == 3; (len(r.Without) > 0) != want {
			t.Errorf("conversation %d went without %v", r.ID, r.Without)
		}
	}
}
