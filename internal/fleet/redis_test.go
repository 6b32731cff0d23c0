package fleet_test

import (
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fleet"
	"github.com/drill-dev/drill/internal/fleet/redisstore/redistest"
	"github.com/drill-dev/drill/internal/testwait"
)

// These tests talk to a real redis-server over loopback, so they run in
// real time (no synctest bubble) and are kept short: 40 emails at 20/s,
// the fake model at a twentieth of its latency.

// One bad replica with a shared breaker: replica 2's failures open the
// one breaker, and every replica stops calling the primary.
func TestOneBadReplicaShared(t *testing.T) {
	srv := redistest.Start(t)
	s, _ := run(t, fleet.Config{Run: drillConfig(40, 20, 0, 2*time.Second, 0.05, 2), Replicas: 4, Store: srv.URL()})
	if s.BreakerStore != "redis" {
		t.Fatalf("breaker store %q, want redis", s.BreakerStore)
	}
	for _, r := range s.PerReplica {
		if r.BreakerOpens == 0 || r.BreakerFirstOpenS == nil {
			t.Errorf("replica %d never saw the shared breaker open", r.Replica)
		}
		if r.Replica != 2 && r.CallsToBrokenOutage != 0 {
			t.Errorf("healthy replica %d made %d calls that met the fault", r.Replica, r.CallsToBrokenOutage)
		}
		if r.Replica != 2 && r.Served.Backup == 0 {
			t.Errorf("healthy replica %d served nothing by the backup: the shared open did not reach it (%+v)", r.Replica, r.Served)
		}
	}
	if s.Fleet.EmailsAnswered != 40 || s.Fleet.Served.Error != 0 {
		t.Errorf("fleet answered %d with %d errors, want 40 and 0", s.Fleet.EmailsAnswered, s.Fleet.Served.Error)
	}
}

// Redis killed mid-drill and restarted: the replicas fall back to local
// breakers and say so, come back to the shared one, and no email is lost.
// The 0.3 s outage comes after Redis is back.
func TestRedisKilledMidDrill(t *testing.T) {
	srv := redistest.Start(t)
	cfg := drillConfig(40, 20, 1400*time.Millisecond, 1700*time.Millisecond, 0.05)
	f, err := fleet.Start(t.Context(), fleet.Config{Run: cfg, Replicas: 4, Store: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	// Redis goes down once the drill is under way, and comes back once the
	// replicas have said they fell back to local breakers.
	testwait.For(t, "the first answered email", func() bool { return countEvents(f.Log(), event.EmailDone, "") > 0 })
	srv.Kill()
	testwait.For(t, "a replica to fall back to local breakers", func() bool {
		return countEvents(f.Log(), event.StoreChange, event.StoreFallback) > 0
	})
	srv.Restart()
	if st := f.Wait(); st != event.StatusCompleted {
		t.Fatalf("status %s, want completed", st)
	}
	var fallbacks, back int
	for _, e := range f.Log().Events() {
		if e.Kind == event.StoreChange {
			if e.Replica == 0 {
				t.Errorf("store change without a replica: %+v", e)
			}
			switch {
			case strings.HasPrefix(e.Detail, event.StoreFallback):
				fallbacks++
			case strings.HasPrefix(e.Detail, event.StoreShared):
				back++
			}
		}
	}
	s, _ := summarize(t, f.Log().Events())
	if fallbacks == 0 || back == 0 || s.StoreFallbacks != fallbacks {
		t.Errorf("%d fallback and %d back events, summary %d fallbacks; want some of each, summary matching", fallbacks, back, s.StoreFallbacks)
	}
	if s.Fleet.EmailsSent != 40 || s.Fleet.EmailsAnswered != 40 || s.Fleet.Served.Error != 0 || s.Fleet.Served.Cancelled != 0 {
		t.Errorf("sent %d, answered %d, errors %d, cancelled %d; want 40, 40, 0, 0",
			s.Fleet.EmailsSent, s.Fleet.EmailsAnswered, s.Fleet.Served.Error, s.Fleet.Served.Cancelled)
	}
	t.Logf("fallbacks %d, back %d; served %+v", fallbacks, back, s.Fleet.Served)
}

// countEvents counts the log's events of kind whose detail starts with
// prefix.
func countEvents(log *event.Log, kind event.Kind, prefix string) int {
	n := 0
	for _, e := range log.Events() {
		if e.Kind == kind && strings.HasPrefix(e.Detail, prefix) {
			n++
		}
	}
	return n
}
