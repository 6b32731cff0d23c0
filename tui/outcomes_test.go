package tui

import (
	"strings"
	"testing"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// TestRejectedApartInHeaderAndQuality: with the worker pool turning
// emails away, the header counts them, and the Quality pane counts them
// apart and keeps them out of all-4-right ("100% of 1 answered", not "50%
// of 2"); it read "of 2 answered" and the header had no rejected count.
func TestRejectedApartInHeaderAndQuality(t *testing.T) {
	truth := emails.All()[0].Truth
	s := newState(nil)
	s.addAll([]event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Outage: "hang", Emails: 2, Rate: 2, MaxInFlight: 1, Target: "primary",
			Rungs: []event.Rung{{Name: "primary", Model: "m", BuiltIn: true}}}},
		{At: secs(0), Kind: event.EmailSent, Email: 1, Truth: &truth},
		{At: secs(0.5), Kind: event.EmailSent, Email: 2, Truth: &truth, Rejected: true},
		{At: secs(0.5), Kind: event.EmailDone, Email: 2, Result: &event.Result{ServedBy: event.ServedRejected}},
		{At: secs(1), Kind: event.EmailDone, Email: 1, Result: &event.Result{ServedBy: event.ServedPrimary, Answer: &truth, Wait: secs(1)}},
	})
	st := asciiStyles()
	head := strings.Join(renderHeader(st, s, 120, secs(1), ""), "\n")
	if !strings.Contains(head, "rejected 1") {
		t.Errorf("header lacks the rejected count:\n%s", head)
	}
	q := strings.Join(renderQuality(st, s, 78, 8), "\n")
	for _, want := range []string{"rejected 1", "of 1 answered"} {
		if !strings.Contains(q, want) {
			t.Errorf("Quality pane lacks %q:\n%s", want, q)
		}
	}
}

// TestNoOutageHeader: on the built-in model with no outage, failed calls
// are failures on a healthy day: the header never speaks of calls to a
// broken model.
func TestNoOutageHeader(t *testing.T) {
	s := newState(nil)
	s.addAll([]event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Outage: "none", Emails: 1, Rate: 2, Target: "primary",
			Rungs: []event.Rung{{Name: "primary", Model: "m", BuiltIn: true}}}},
		{At: secs(0), Kind: event.EmailSent, Email: 1},
		{At: secs(0), Kind: event.AttemptStart, Email: 1, Rung: "primary"},
		{At: secs(1), Kind: event.AttemptEnd, Email: 1, Rung: "primary", Outcome: event.Timeout},
	})
	head := strings.Join(renderHeader(asciiStyles(), s, 120, secs(1), ""), "\n")
	if strings.Contains(head, "broken") || !strings.Contains(head, "1 failed calls, no outage") {
		t.Errorf("header of a run without an outage:\n%s", head)
	}
}

// TestCutOffConversationsInTheHeader: the chat header counts the
// conversations the run's end cut off apart from the silent ones.
func TestCutOffConversationsInTheHeader(t *testing.T) {
	sum := scoring.ChatSummary{Conversations: 40, Answered: 21, Silent: 3, CutOff: 16}
	segs := strings.Join(chatFigures(asciiStyles(), sum, 0), " · ")
	if !strings.Contains(segs, "silent 3") || !strings.Contains(segs, "cut off 16") {
		t.Errorf("chat figures %q; want silent 3 and cut off 16", segs)
	}
}

// TestNoOutageBaselineComparesOpens: with no outage the Breaker pane's
// baseline line compares breaker opens, not calls to a broken model.
func TestNoOutageBaselineComparesOpens(t *testing.T) {
	st := asciiStyles()
	s := newState(nil)
	s.addAll([]event.Event{{Kind: event.RunStart, Run: &event.RunInfo{Outage: "none", Emails: 1, Rate: 2, Target: "primary",
		Rungs: []event.Rung{{Name: "primary", Model: "m", HasBreaker: true, BuiltIn: true}}}}})
	s.baseline = baselineAt(baselineStub{scoring.BaselineSummary{Basis: scoring.BaselineReplayed,
		BaselineMeasured: &scoring.BaselineMeasured{BreakerOpens: 2}}}, s, secs(1))
	text := strings.Join(s.baseline.breakerLines(st, s, 60), "\n")
	if strings.Contains(text, "broken") || !strings.Contains(text, "no outage: breaker opens live 0") {
		t.Errorf("baseline line of a run without an outage: %q", text)
	}
}
