package scoring

import (
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
)

// A coordinated fleet's worker that dies leaves its emails to another,
// which takes them over (a reclaimed event) and answers them: the fleet
// counts every email once, even the one both workers answered (the first
// answer counts), and the reclaimed emails.
func TestFleetFoldCountsAReclaimedEmailOnce(t *testing.T) {
	s := time.Second
	info := &event.RunInfo{Outage: "none", Policy: "fallback", Emails: 2,
		Overrides: map[string]string{"replicas": "2", "routing": "queue", "breaker-store": "local"}}
	ok := func(at time.Duration, email, replica int) event.Event {
		return event.Event{Kind: event.EmailDone, At: at, Email: email, Replica: replica, Result: &event.Result{ServedBy: "primary", Wait: s}}
	}
	evs := []event.Event{
		{Kind: event.RunStart, Run: info},
		{Kind: event.EmailSent, At: 0, Email: 1, Replica: 1},
		{Kind: event.EmailSent, At: s, Email: 2, Replica: 1},
		{Kind: event.Reclaimed, At: 3 * s, Replica: 2, Reclaim: &event.Reclaim{From: "a", FromReplica: 1, By: "b", Emails: []int{1, 2}}},
		{Kind: event.EmailSent, At: 3 * s, Email: 1, Replica: 2},
		{Kind: event.EmailSent, At: 3 * s, Email: 2, Replica: 2},
		{Kind: event.EmailDone, At: 2 * s, Email: 2, Replica: 1, Result: &event.Result{ServedBy: "error", Cancelled: true}}, // worker 1 stopped
		ok(4*s, 1, 1), // the slow worker finished after all
		ok(4*s, 1, 2),
		ok(4*s, 2, 2),
		{Kind: event.RunEnd, At: 5 * s, End: &event.RunEndInfo{Status: event.StatusCompleted}},
	}
	ff := NewFleetFold()
	ff.AddAll(evs)
	sum := ff.Summary()
	if sum.Fleet.EmailsSent != 2 || sum.Fleet.EmailsAnswered != 2 || sum.Fleet.Served.Primary != 2 || sum.Fleet.Served.Cancelled != 0 {
		t.Errorf("fleet sent %d, answered %d, primary %d, cancelled %d; want every email once, the cancelled one answered by the other worker: 2, 2, 2, 0",
			sum.Fleet.EmailsSent, sum.Fleet.EmailsAnswered, sum.Fleet.Served.Primary, sum.Fleet.Served.Cancelled)
	}
	if sum.Reclaimed != 2 {
		t.Errorf("reclaimed %d, want 2", sum.Reclaimed)
	}
	if r, ok := ReclaimedFrom(evs[3]); !ok || r != 1 {
		t.Errorf("ReclaimedFrom = %d, %v; want 1, true", r, ok)
	}
	finished := map[int]bool{}
	for _, e := range evs {
		if id, ok := Finished(e); ok {
			finished[id] = true
		}
	}
	if len(finished) != 2 {
		t.Errorf("finished %v, want emails 1 and 2", finished)
	}
	if _, ok := Finished(event.Event{Kind: event.EmailDone, Email: 3, Result: &event.Result{ServedBy: "error", Cancelled: true}}); ok {
		t.Error("a cancelled email counts as finished: another worker must still take it")
	}
}
