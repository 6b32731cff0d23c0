package breaker

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

func TestSyntheticProbeNeverLetsCustomersThrough(t *testing.T) {
	// The model is down until 12 s. The breaker opens at 0 s and sends
	// its own health call every 2 s; no customer call goes through until
	// a synthetic probe succeeds (at 12 s), and then the breaker closes.
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var probes atomic.Int32
		healthy := func() bool { return time.Since(start) >= 12*time.Second }
		var mu sync.Mutex
		var changes []string
		b := New(Settings{Trip: Trip{Failures: 1}, ProbeInterval: 2 * time.Second,
			Synthetic: func(ctx context.Context) Result {
				probes.Add(1)
				if healthy() {
					return Success
				}
				return Failure
			},
			OnChange: func(ch Change) { mu.Lock(); changes = append(changes, ch.To.String()); mu.Unlock() }})
		defer b.Close()
		tk, _ := b.Allow()
		b.Done(tk, Failure)
		for time.Since(start) < 12*time.Second {
			if _, err := b.Allow(); !errors.Is(err, ErrOpen) {
				t.Fatalf("a customer call went through at %v while the breaker was %v", time.Since(start), b.State())
			}
			time.Sleep(100 * time.Millisecond)
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		mu.Lock()
		got := append([]string(nil), changes...)
		mu.Unlock()
		if b.State() != Closed {
			t.Fatalf("state %v at 12 s, want closed after a good synthetic probe (changes %v)", b.State(), got)
		}
		if n := probes.Load(); n != 6 {
			t.Fatalf("%d synthetic probes, want 6 (2, 4, ..., 12 s)", n)
		}
		if len(got) != 2 || got[0] != "open" || got[1] != "closed" {
			t.Fatalf("changes %v, want open, closed", got)
		}
	})
}

func TestCloseStopsSyntheticProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := New(Settings{Trip: Trip{Failures: 1}, Synthetic: func(ctx context.Context) Result {
			<-ctx.Done() // a hung health call
			return Failure
		}})
		tk, _ := b.Allow()
		b.Done(tk, Failure)
		time.Sleep(6 * time.Second) // the probe is in flight
		b.Close()                   // returns once the probe gave up; synctest checks no goroutine is left
	})
}
