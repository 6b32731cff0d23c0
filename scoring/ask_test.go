package scoring

import (
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
)

func TestReplicaPartOf(t *testing.T) {
	for kind, want := range map[event.Kind]ReplicaPart{
		event.RunStart:    ReplicaRunStart,
		event.RunEnd:      ReplicaRunEnd,
		event.OutageStart: ReplicaSchedule,
		event.OutageEnd:   ReplicaSchedule,
		event.EmailSent:   ReplicaOwn,
		event.AttemptEnd:  ReplicaOwn,
	} {
		if got := ReplicaPartOf(event.Event{Kind: kind}); got != want {
			t.Errorf("ReplicaPartOf(%s) = %d, want %d", kind, got, want)
		}
	}
}

func TestAlertOf(t *testing.T) {
	a := &event.Alert{Name: "BreakerOpen", Status: "firing"}
	if got, ok := AlertOf(event.Event{Kind: event.AlertReceived, Alert: a}); !ok || got != a {
		t.Errorf("AlertOf(alert event) = %v, %t, want the alert", got, ok)
	}
	if _, ok := AlertOf(event.Event{Kind: event.AlertReceived}); ok {
		t.Error("AlertOf(alert event without an alert) reported one")
	}
	if _, ok := AlertOf(event.Event{Kind: event.EmailSent, Alert: a}); ok {
		t.Error("AlertOf(email event) reported an alert")
	}
}

func TestHasKind(t *testing.T) {
	if HasKind(event.Event{}) || !HasKind(event.Event{Kind: event.EmailSent}) {
		t.Error("HasKind must be false for an event without a kind and true for one with a kind")
	}
}

// TestEventRulesCeiling: events may be stamped up to a minute past the
// run's ceiling, and the error names the bound in Go's duration form.
func TestEventRulesCeiling(t *testing.T) {
	r := NewEventRules(60 * time.Second)
	if msg := r.Check(event.Event{Kind: event.EmailSent, Email: 1, At: 119 * time.Second}, 2); msg != "" {
		t.Errorf("an event within the grace was refused: %s", msg)
	}
	msg := r.Check(event.Event{Kind: event.EmailSent, Email: 1, At: 121 * time.Second}, 3)
	if want := `field "at_ns" is 121000000000 (2m1s), after the run's ceiling (1m0s) plus 1m0s`; msg != want {
		t.Errorf("past the ceiling: %q, want %q", msg, want)
	}
	if msg := NewEventRules(0).Check(event.Event{At: MaxOffset + 1}, 1); !strings.Contains(msg, "the longest run drill reads (168h0m0s)") {
		t.Errorf("past a week without a ceiling: %q", msg)
	}
}

// TestEventRulesChat: a chat workload's event without its conversation is
// refused when the journal is read, before the chat fold would meet it.
func TestEventRulesChat(t *testing.T) {
	r := NewEventRules(0)
	if msg := r.Check(event.Event{Kind: event.ConversationStart, Chat: &event.Chat{Conversation: 1}}, 1); msg != "" {
		t.Errorf("a conversation_start with its conversation was refused: %s", msg)
	}
	for _, k := range []event.Kind{event.ConversationStart, event.ModelAttempt, event.ModelCall, event.ToolCall, event.ConversationHandover, event.ConversationEnd} {
		want := `field "chat" is missing from a ` + string(k) + ` event`
		if msg := r.Check(event.Event{Kind: k}, 2); msg != want {
			t.Errorf("%s without chat: %q, want %q", k, msg, want)
		}
	}
}
