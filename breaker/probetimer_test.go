package breaker

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// TestLostProbeReopensOnTimeWithTheInFlightRule: with the in-flight rule on
// and a probe timeout shorter than its age, a probe nobody answers reopens
// the breaker at its timeout, by the breaker's own timer, not when the
// in-flight age's timer fires (the changes then came late, in a batch).
func TestLostProbeReopensOnTimeWithTheInFlightRule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var mu sync.Mutex
		var opens []time.Duration // when each reopening was reported
		b := New(Settings{Trip: Trip{Rules: []string{RuleCount, RuleInFlight}, Failures: 1, InFlightAge: 5 * time.Second},
			Cooldown: time.Second, ProbeTimeout: 2 * time.Second,
			OnChange: func(c Change) {
				mu.Lock()
				defer mu.Unlock()
				if c.To == Open {
					opens = append(opens, time.Since(start))
				}
			}})
		defer b.Close()
		tk, _ := b.Allow()
		b.Done(tk, Failure) // open at 0
		time.Sleep(time.Second)
		synctest.Wait() // half-open at 1 s
		if p, err := b.Allow(); err != nil || !p.Probe() {
			t.Fatalf("want a probe at 1 s: %v", err)
		}
		time.Sleep(2500 * time.Millisecond) // the probe is lost at 3 s; nobody asks
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		if len(opens) != 2 || opens[1] != 3*time.Second {
			t.Errorf("opens reported at %v, want [0s 3s]", opens)
		}
	})
}
