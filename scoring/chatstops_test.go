package scoring

import (
	"reflect"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
)

// TestChatStopsByCheckAndOutcome: the fold counts why conversations
// stopped, a row per check (or limit) with how many it handed over and how
// many it left silent, answered first; and it carries the incident window.
func TestChatStopsByCheckAndOutcome(t *testing.T) {
	s := time.Second
	end := func(id int, ending, reason string) event.Event {
		return event.Event{Kind: event.ConversationEnd, Chat: &event.Chat{Conversation: id, Elapsed: s, Ending: ending, Reason: reason}}
	}
	evs := []event.Event{{Kind: event.RunStart, Run: &event.RunInfo{Workload: "chat", Outage: "mixed", OutageFromS: 300, OutageToS: 600}}}
	for i := 1; i <= 7; i++ {
		evs = append(evs, event.Event{Kind: event.ConversationStart, Chat: &event.Chat{Conversation: i}})
	}
	evs = append(evs, end(1, event.EndingAnswered, ""), end(2, event.EndingHandedOver, event.StopLoop),
		end(3, event.EndingHandedOver, event.StopLoop), end(4, event.EndingSilent, event.StopTurnLimit),
		end(5, event.EndingHandedOver, event.StopTurnLimit), end(6, event.EndingHandedOver, event.StopBudgetTokens),
		end(7, event.EndingSilent, event.StopModelFailed))
	sum := FoldChat(evs)
	want := []ChatStop{
		{Reason: "", Check: "none: answered", Answered: 1},
		{Reason: event.StopModelFailed, Check: "the SDK's retries", Silent: 1},
		{Reason: event.StopLoop, Check: "loop guard", HandedOver: 2},
		{Reason: event.StopBudgetTokens, Check: "budget", HandedOver: 1},
		{Reason: event.StopTurnLimit, Check: "turn limit", HandedOver: 1, Silent: 1},
	}
	if !reflect.DeepEqual(sum.Stops, want) {
		t.Errorf("stops:\n got %+v\nwant %+v", sum.Stops, want)
	}
	if sum.IncidentFromS != 300 || sum.IncidentToS != 600 {
		t.Errorf("incident window %g–%g s, want 300–600", sum.IncidentFromS, sum.IncidentToS)
	}
	evs[0].Run.Outage = "none"
	if n := FoldChat(evs); n.IncidentFromS != 0 || n.IncidentToS != 0 {
		t.Errorf("no incident: window %g–%g s, want none", n.IncidentFromS, n.IncidentToS)
	}
}
