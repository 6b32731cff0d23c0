package plain

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/scoring"
)

// TestAlertsNotTheRunsAreShown: the summary lists each alert with what
// fired and what was not counted, a failed drill names the stale alert,
// and the note of a stale notification says it is stale.
func TestAlertsNotTheRunsAreShown(t *testing.T) {
	first, resolved, staleStart := 5.1, 25.0, -4.7
	s := scoring.Summary{Alerts: map[string]scoring.AlertSummary{
		"BreakerOpen": {Stale: 1, StaleStartRunS: &staleStart},
		"Fresh":       {Fired: 1, Notifications: 2, Resolved: 1, FirstS: &first, ResolvedS: &resolved},
		"Other":       {Foreign: 2, ForeignRun: "a1b2c3"},
	}, AlertsDropped: 7}
	var b bytes.Buffer
	if err := Summary(&b, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"alert BreakerOpen", "1 stale firing (started 4.7 s before this run), not counted",
		"alert Fresh", "1 firing, the first at 5.1 s, resolved at 25.0 s",
		"alert Other", "2 foreign firings (drill_run a1b2c3), not counted",
		"alerts dropped", "7 alerts past the receiver's bounds",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
	msg := FailedHypotheses(s, scoring.RunVerdict{Verdicts: []scoring.Verdict{{Expr: "alert.BreakerOpen.fired >= 1", Value: 0.0}},
		Failed: []scoring.Verdict{{Expr: "alert.BreakerOpen.fired >= 1", Value: 0.0}}})
	if !strings.Contains(msg, "alert BreakerOpen: 1 stale firing (the first started 4.7 s before this run), not counted as fired") {
		t.Errorf("the failure does not name the stale alert:\n%s", msg)
	}
	start := -4700 * time.Millisecond
	note := AlertNote(scoring.AlertNote{ReceivedAlert: scoring.ReceivedAlert{At: 800 * time.Millisecond, Name: "BreakerOpen",
		Status: "firing", Not: scoring.AlertStale, StartRun: &start}})
	if want := "alert BreakerOpen firing at 0.8 s: stale, started 4.7 s before this run"; note != want {
		t.Errorf("note = %q, want %q", note, want)
	}
}
