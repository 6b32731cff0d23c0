package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
)

// TestBreakerPaneShowsAlertsAsTheyArrive: an alert from the team's
// Alertmanager shows in the Breaker pane as it arrives, placed by the fold
// against the outage's start and the breaker's first open.
func TestBreakerPaneShowsAlertsAsTheyArrive(t *testing.T) {
	st := asciiStyles()
	s := newState(nil)
	window := &event.Window{From: 10 * time.Second, To: 30 * time.Second}
	s.addAll([]event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Emails: 10, Rate: 2, Outage: "busy", Policy: "breaker", Target: "primary",
			OutageFromS: 10, OutageToS: 30, Rungs: []event.Rung{{Name: "primary", HasBreaker: true}}}},
		{At: 10 * time.Second, Kind: event.OutageStart, Fault: "busy", Rung: "primary", Window: window},
		{At: 13400 * time.Millisecond, Kind: event.BreakerChange, Rung: "primary",
			Breaker: &event.BreakerState{Name: "primary", From: "closed", To: "open"}},
	})
	if lines := strings.Join(breakerLines(st, s, 100, 14*time.Second, true), "\n"); strings.Contains(lines, "alert ") {
		t.Fatalf("an alert line before any alert came:\n%s", lines)
	}
	s.addAll([]event.Event{{At: 15200 * time.Millisecond, Kind: event.AlertReceived,
		Alert: &event.Alert{Name: "BreakerOpen", Status: event.AlertFiring, Fingerprint: "f"}}})
	lines := strings.Join(breakerLines(st, s, 100, 16*time.Second, true), "\n")
	if want := "alert BreakerOpen firing 5.2 s into the outage (1.8 s after the breaker opened)"; !strings.Contains(lines, want) {
		t.Errorf("the Breaker pane lacks %q:\n%s", want, lines)
	}
}
