package scoring

import (
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
)

// TestAlertFigures: a firing repeated by Alertmanager counts once, its
// first arrival is relative to the outage's start, and a difference with
// breaker_first_open_s judges the alert's delay.
func TestAlertFigures(t *testing.T) {
	s := time.Second
	start := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	alert := func(at time.Duration, status, fp string, startsAt time.Time) event.Event {
		return event.Event{At: at, Kind: event.AlertReceived, Alert: &event.Alert{Name: "BreakerOpen", Status: status,
			Fingerprint: fp, StartsAt: startsAt}}
	}
	evs := []event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Target: event.ServedPrimary,
			Rungs: []event.Rung{{Name: event.ServedPrimary, HasBreaker: true}}}},
		{At: 15 * s, Kind: event.OutageStart, Rung: event.ServedPrimary, Window: &event.Window{From: 15 * s, To: 40 * s}},
		{At: 18 * s, Kind: event.BreakerChange, Breaker: &event.BreakerState{Name: event.ServedPrimary, From: StateClosed, To: StateOpen}},
		alert(22*s, event.AlertFiring, "a", start),
		alert(25*s, event.AlertFiring, "a", start), // a repeat of the same firing
		alert(45*s, event.AlertResolved, "a", start),
		alert(50*s, event.AlertFiring, "a", start.Add(time.Minute)),
	}
	sum := Summarize(evs)
	got := sum.Alerts["BreakerOpen"]
	if got.Fired != 2 || got.Resolved != 1 || got.Notifications != 4 {
		t.Errorf("alert = %+v, want fired 2, resolved 1, notifications 4", got)
	}
	if got.FirstS == nil || *got.FirstS != 7 || got.FirstRunS == nil || *got.FirstRunS != 22 {
		t.Errorf("first_s = %v, first_run_s = %v, want 7 and 22", got.FirstS, got.FirstRunS)
	}
	figs, err := FiguresOf(sum)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		expr string
		pass bool
		want any
	}{
		{"alert.BreakerOpen.first_s - breaker_first_open_s < 60", true, 4.0},
		{"alert.BreakerOpen.first_s - breaker_first_open_s < 3", false, 4.0},
		{"alert.BreakerOpen.fired == 2", true, 2.0},
		{"alert.Other.fired == 0", false, nil},
		{"alert.Other.first_s - breaker_first_open_s < 60", false, nil},
	} {
		e, err := ParseExpr(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		if pass, v := e.Holds(figs); pass != c.pass || v != c.want {
			t.Errorf("%s: holds %v, measured %v; want %v, %v", c.expr, pass, v, c.pass, c.want)
		}
	}
	if Summarize(evs[:3]).Alerts != nil {
		t.Error("a run without alerts has an alert map")
	}
}
