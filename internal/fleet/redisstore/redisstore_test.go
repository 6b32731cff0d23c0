package redisstore_test

import (
	"sync"
	"testing"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/internal/fleet/redisstore"
	"github.com/drill-dev/drill/internal/fleet/redisstore/redistest"
	"github.com/drill-dev/drill/internal/testwait"
)

// replica is one process's view: its own store connection and breaker.
type replica struct {
	store   *redisstore.Store
	b       *breaker.Breaker
	mu      sync.Mutex
	changes []string
	status  []bool
}

func newReplica(t *testing.T, url, prefix string) *replica {
	t.Helper()
	r := &replica{}
	s, err := redisstore.Open(url, redisstore.Options{Prefix: prefix, OnStatus: func(up bool, _ error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.status = append(r.status, up)
	}})
	if err != nil {
		t.Fatal(err)
	}
	r.store = s
	r.b = breaker.New(breaker.Settings{Name: "primary", Store: s, Cooldown: 200 * time.Millisecond,
		Trip: breaker.Trip{Failures: 3, Window: 10 * time.Second},
		OnChange: func(c breaker.Change) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.changes = append(r.changes, c.From.String()+">"+c.To.String())
		}})
	t.Cleanup(func() { r.b.Close(); s.Close() })
	return r
}

func (r *replica) fail(t *testing.T) {
	t.Helper()
	tk, err := r.b.Allow()
	if err != nil {
		t.Fatalf("Allow: %v", err)
	}
	r.b.Done(tk, breaker.Failure)
}

// Three failures spread over two replicas open the one shared breaker; the
// other replica learns of it from the published change, before any call.
func TestSharedBreakerTripsOnceForTheFleet(t *testing.T) {
	srv := redistest.Start(t)
	a, b := newReplica(t, srv.URL(), "t1"), newReplica(t, srv.URL(), "t1")
	a.fail(t)
	b.fail(t)
	a.fail(t)
	if got := a.b.State(); got != breaker.Open {
		t.Fatalf("replica a after 3 shared failures: %s, want open", got)
	}
	testwait.For(t, "replica b to hear of the open breaker", func() bool { return b.b.State() == breaker.Open })
	if _, err := b.b.Allow(); err != breaker.ErrOpen {
		t.Fatalf("replica b Allow while open: %v, want ErrOpen", err)
	}

	// After the cooldown exactly one probe goes out across the fleet.
	// Waiting out the 200 ms cooldown is the behaviour under test, not a
	// synchronisation: no event says "the cooldown has passed".
	time.Sleep(250 * time.Millisecond)
	pa, errA := a.b.Allow()
	_, errB := b.b.Allow()
	if errA != nil || errB != breaker.ErrOpen || !pa.Probe() {
		t.Fatalf("after the cooldown: a %v (probe %v), b %v; want one probe for a, b denied", errA, pa.Probe(), errB)
	}
	a.b.Done(pa, breaker.Success)
	testwait.For(t, "replica b to hear the breaker closed", func() bool { return b.b.State() == breaker.Closed })
}

// Redis killed: the breakers fall back to local state and say so; Redis
// back: they follow the shared state again.
func TestFallbackWhileRedisIsDown(t *testing.T) {
	srv := redistest.Start(t)
	a := newReplica(t, srv.URL(), "t2")
	tk, err := a.b.Allow()
	if err != nil {
		t.Fatal(err)
	}
	a.b.Done(tk, breaker.Success)
	srv.Kill()
	// Calls still get decisions (locally): three failures open the local breaker.
	for range 3 {
		a.fail(t)
	}
	if got := a.b.State(); got != breaker.Open {
		t.Fatalf("local fallback after 3 failures: %s, want open", got)
	}
	srv.Restart()
	testwait.For(t, "the store to answer again", func() bool {
		tk, err := a.b.Allow()
		if err == nil {
			a.b.Done(tk, breaker.Success)
		}
		a.mu.Lock()
		back := len(a.status) > 0 && a.status[len(a.status)-1]
		a.mu.Unlock()
		return back && a.b.State() == breaker.Closed
	})
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.status) != 2 || a.status[0] || !a.status[1] {
		t.Fatalf("status reports %v, want [down up]", a.status)
	}
}
