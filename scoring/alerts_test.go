package scoring

import (
	"slices"
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

// TestAlertsBelongToTheirRun: an alert that started before the run (beyond
// the clock-skew allowance) is stale, one whose drill_run label names
// another run is foreign; neither counts as fired, so a fired check fails
// on them alone, and each is counted with its start or its run. The run's
// own alert, even one started a little before the run's start by
// Prometheus's clock, fires, and its resolution is recorded.
func TestAlertsBelongToTheirRun(t *testing.T) {
	s := time.Second
	start := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	alert := func(at time.Duration, status, fp string, startsAt time.Time, run string) event.Event {
		labels := map[string]string{"alertname": "BreakerOpen"}
		if run != "" {
			labels[event.RunLabel] = run
		}
		return event.Event{At: at, Kind: event.AlertReceived, Alert: &event.Alert{Name: "BreakerOpen", Status: status,
			Fingerprint: fp, StartsAt: startsAt, Labels: labels}}
	}
	runStart := event.Event{Kind: event.RunStart, Run: &event.RunInfo{Target: event.ServedPrimary, ID: "b2", StartedAt: start,
		Rungs: []event.Rung{{Name: event.ServedPrimary, HasBreaker: true}}}}
	outage := event.Event{At: 10 * s, Kind: event.OutageStart, Rung: event.ServedPrimary, Window: &event.Window{From: 10 * s, To: 30 * s}}
	stale := []event.Event{runStart, outage,
		alert(800*time.Millisecond, event.AlertFiring, "a", start.Add(-9200*time.Millisecond), ""),
		alert(5*s, event.AlertFiring, "a", start.Add(-9200*time.Millisecond), ""), // a repeat
		alert(12*s, event.AlertFiring, "c", start.Add(11*s), "a1"),                // another run's
		alert(13*s, event.AlertResolved, "a", start.Add(-9200*time.Millisecond), ""),
	}
	sum := Summarize(stale)
	got := sum.Alerts["BreakerOpen"]
	if got.Fired != 0 || got.Resolved != 0 || got.Notifications != 0 || got.FirstS != nil || got.ResolvedS != nil {
		t.Errorf("stale and foreign alerts counted as the run's: %+v", got)
	}
	if got.Stale != 1 || got.StaleStartRunS == nil || *got.StaleStartRunS != -9.2 {
		t.Errorf("stale = %d, stale_start_run_s = %v; want 1 and -9.2", got.Stale, got.StaleStartRunS)
	}
	if got.Foreign != 1 || got.ForeignRun != "a1" {
		t.Errorf("foreign = %d (%q), want 1 (a1)", got.Foreign, got.ForeignRun)
	}
	figs, err := FiguresOf(sum)
	if err != nil {
		t.Fatal(err)
	}
	e, err := ParseExpr("alert.BreakerOpen.fired >= 1")
	if err != nil {
		t.Fatal(err)
	}
	if pass, v := e.Holds(figs); pass || v != 0.0 {
		t.Errorf("fired >= 1 on stale alerts alone: holds %v, measured %v", pass, v)
	}
	f := NewFold()
	f.AddAll(stale)
	var nots []string
	for _, a := range f.Alerts() {
		nots = append(nots, a.Not)
	}
	if want := []string{AlertStale, AlertStale, AlertForeign, AlertStale}; !slices.Equal(nots, want) {
		t.Errorf("received alerts marked %q, want %q", nots, want)
	}

	fresh := []event.Event{runStart, outage,
		alert(12*s, event.AlertFiring, "a", start.Add(-time.Second), "b2"), // within the skew allowance
		alert(35*s, event.AlertResolved, "a", start.Add(-time.Second), "b2"),
	}
	got = Summarize(fresh).Alerts["BreakerOpen"]
	if got.Fired != 1 || got.Resolved != 1 || got.Stale != 0 || got.Foreign != 0 {
		t.Errorf("the run's own alert: %+v, want fired 1, resolved 1", got)
	}
	if got.ResolvedS == nil || *got.ResolvedS != 25 || got.ResolvedRunS == nil || *got.ResolvedRunS != 35 {
		t.Errorf("resolved_s = %v, resolved_run_s = %v, want 25 and 35", got.ResolvedS, got.ResolvedRunS)
	}
}

// TestAlertsDroppedCounted: the receiver's drops add up in the summary.
func TestAlertsDroppedCounted(t *testing.T) {
	evs := []event.Event{{Kind: event.RunStart, Run: &event.RunInfo{}},
		{At: time.Second, Kind: event.AlertsDropped, Alert: &event.Alert{Dropped: 14900}, Detail: "alert names"},
		{At: 2 * time.Second, Kind: event.AlertsDropped, Alert: &event.Alert{Dropped: 15000}, Detail: "alert names"}}
	if got := Summarize(evs).AlertsDropped; got != 29900 {
		t.Errorf("alerts_dropped = %d, want 29900", got)
	}
}
