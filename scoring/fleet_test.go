package scoring

import (
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
)

// The fleet fold gives each replica the fleet's own events (run start,
// outage) and its own, counts store fallbacks per replica, and adds the
// replicas up in the whole fleet's summary.
func TestFleetFold(t *testing.T) {
	s := time.Second
	info := &event.RunInfo{Outage: "busy", Policy: "breaker", Emails: 4, Target: "primary",
		Rungs:     []event.Rung{{Name: "primary", HasBreaker: true}, {Name: "backup"}},
		Overrides: map[string]string{"replicas": "2", "routing": "round-robin", "breaker-store": "redis"}}
	open := &event.BreakerState{Name: "primary", From: "closed", To: "open"}
	evs := []event.Event{
		{Kind: event.RunStart, Run: info},
		{Kind: event.OutageStart, At: 1 * s, Fault: "busy", Rung: "primary", Window: &event.Window{From: 1 * s, To: 9 * s}},
		{Kind: event.EmailSent, At: 1 * s, Email: 1, Replica: 1},
		{Kind: event.EmailSent, At: 2 * s, Email: 2, Replica: 2},
		{Kind: event.Fault, At: 2 * s, Email: 1, Rung: "primary", Fault: "busy", Replica: 1},
		{Kind: event.Fault, At: 3 * s, Email: 1, Rung: "primary", Fault: "busy", Replica: 1},
		{Kind: event.BreakerChange, At: 3 * s, Rung: "primary", Breaker: open, Replica: 1},
		{Kind: event.StoreChange, At: 3 * s, Detail: event.StoreFallback + " (refused)", Replica: 2},
		{Kind: event.BreakerChange, At: 4 * s, Rung: "primary", Breaker: open, Replica: 2},
		{Kind: event.EmailDone, At: 4 * s, Email: 1, Replica: 1, Result: &event.Result{ServedBy: "backup", Wait: 3 * s}},
		{Kind: event.EmailDone, At: 5 * s, Email: 2, Replica: 2, Result: &event.Result{ServedBy: "backup", Wait: 3 * s}},
		{Kind: event.StoreChange, At: 6 * s, Detail: event.StoreShared + " (redis answered again)", Replica: 2},
		{Kind: event.OutageEnd, At: 9 * s, Fault: "busy", Rung: "primary", Window: &event.Window{From: 1 * s, To: 9 * s}},
		{Kind: event.RunEnd, At: 10 * s, End: &event.RunEndInfo{Status: event.StatusCompleted}},
	}
	ff := NewFleetFold()
	ff.AddAll(evs)
	sum := ff.Summary()
	if sum.Replicas != 2 || sum.Routing != "round-robin" || sum.BreakerStore != "redis" || len(sum.PerReplica) != 2 {
		t.Fatalf("fleet %d replicas, %s, %s, %d rows", sum.Replicas, sum.Routing, sum.BreakerStore, len(sum.PerReplica))
	}
	r1, r2 := sum.PerReplica[0], sum.PerReplica[1]
	if r1.CallsToBrokenOutage != 2 || r2.CallsToBrokenOutage != 0 {
		t.Errorf("broken calls %d and %d, want 2 and 0", r1.CallsToBrokenOutage, r2.CallsToBrokenOutage)
	}
	if r1.BreakerFirstOpenS == nil || *r1.BreakerFirstOpenS != 2 || r2.BreakerFirstOpenS == nil || *r2.BreakerFirstOpenS != 3 {
		t.Errorf("first opens %v and %v, want 2 s and 3 s after the outage start", r1.BreakerFirstOpenS, r2.BreakerFirstOpenS)
	}
	if r1.EmailsSent != 1 || r1.Served.Backup != 1 || r1.BreakerState != StateOpen || r1.StoreFallbacks != 0 {
		t.Errorf("replica 1: %+v", r1)
	}
	if r2.StoreFallbacks != 1 || r2.StoreLocal {
		t.Errorf("replica 2: %d fallbacks, local at the end %v; want 1, false", r2.StoreFallbacks, r2.StoreLocal)
	}
	if sum.StoreFallbacks != 1 || sum.Fleet.CallsToBrokenOutage != 2 || sum.Fleet.BreakerOpens != 2 || sum.Fleet.Served.Backup != 2 ||
		sum.Fleet.Status != event.StatusCompleted {
		t.Errorf("fleet: %d fallbacks, %d broken calls, %d opens, served %+v, status %s",
			sum.StoreFallbacks, sum.Fleet.CallsToBrokenOutage, sum.Fleet.BreakerOpens, sum.Fleet.Served, sum.Fleet.Status)
	}
}

// TestFleetScanTellsAFleetJournal: a journal whose emails carry replicas is
// a fleet's, folded with every event before its first replica's; one whose
// first email carries none is not.
func TestFleetScanTellsAFleetJournal(t *testing.T) {
	start := event.Event{Kind: event.RunStart, Run: &event.RunInfo{Outage: "busy", Emails: 2, Target: "primary",
		Overrides: map[string]string{"replicas": "2"}}}
	var fleet FleetScan
	for _, e := range []event.Event{start, {Kind: event.EmailSent, Email: 1, Replica: 1}, {Kind: event.EmailSent, Email: 2, Replica: 2}} {
		fleet.Add(e)
	}
	if s := fleet.Summary(); s == nil || s.Replicas != 2 || s.Fleet.Outage != "busy" {
		t.Errorf("fleet journal: %+v, want a fleet of 2 replicas whose run_start was folded", s)
	}
	var single FleetScan
	for _, e := range []event.Event{start, {Kind: event.EmailSent, Email: 1}, {Kind: event.EmailSent, Email: 2, Replica: 2}} {
		single.Add(e)
	}
	if s := single.Summary(); s != nil {
		t.Errorf("a journal whose first email has no replica: %+v, want no fleet", s)
	}
}
