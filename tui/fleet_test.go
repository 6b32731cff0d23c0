package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// The fleet pane has a row per replica with its breaker state in words,
// and names the replicas on local breakers while the store is unreachable.
func TestRenderFleet(t *testing.T) {
	first := 3.5
	s := scoring.FleetSummary{Replicas: 2, Routing: "round-robin", BreakerStore: "redis",
		Fleet: scoring.Summary{Outage: "busy", Policy: "breaker", Status: event.StatusCompleted},
		PerReplica: []scoring.ReplicaSummary{
			{Replica: 1, EmailsSent: 5, BreakerState: scoring.StateOpen, CallsToBrokenOutage: 4, BreakerFirstOpenS: &first, BreakerOpens: 1},
			{Replica: 2, EmailsSent: 5, BreakerState: scoring.StateClosed, StoreLocal: true, StoreFallbacks: 1},
		}}
	out := RenderFleet(asciiStyles(), s, 12*time.Second, false, 0)
	for _, want := range []string{"Fleet · 2 replicas · redis store", "OPEN", "CLOSED", "LOCAL: store unreachable (1 fallbacks)",
		"Redis unreachable: replicas 2 fall back to local breakers", "3.5 s"} {
		if !strings.Contains(out, want) {
			t.Errorf("fleet pane lacks %q:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(RenderFleet(asciiStyles(), s, 12*time.Second, true, 40), "\n") {
		if w := len([]rune(l)); w > 40 {
			t.Errorf("line wider than 40 (%d): %q", w, l)
		}
	}
}

// The model folds what each tick polled from the log, and q quits.
func TestFleetModelUpdate(t *testing.T) {
	log := event.NewLog(time.Now())
	log.Append(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Target: "primary",
		Overrides: map[string]string{"replicas": "1", "breaker-store": "local", "routing": "round-robin"}}})
	log.Append(event.Event{Kind: event.EmailSent, Email: 1, Replica: 1})
	m := &fleetModel{st: asciiStyles(), cur: log.Cursor(), fold: scoring.NewFleetFold(), tick: time.Millisecond}
	m.Update(tickMsg{T: time.Now()})
	if s := m.fold.Summary(); len(s.PerReplica) != 1 || s.PerReplica[0].EmailsSent != 1 {
		t.Fatalf("after a tick: %+v", s.PerReplica)
	}
	if v := m.View(); !strings.Contains(v, "Fleet · 1 replicas") {
		t.Errorf("the pane does not show the tick's events:\n%s", v)
	}
	if _, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")}); cmd == nil || !m.quit {
		t.Error("q did not quit")
	}
}
