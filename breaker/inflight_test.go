package breaker

import (
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

func TestInFlightRuleOpensBeforeTheCallEnds(t *testing.T) {
	// A hang: the call started at 15 s is still out at 19 s, the in-flight
	// age. The breaker opens then, without waiting for the time limit;
	// the call's late failure belongs to the closed state and is dropped.
	got := play(t, Settings{Trip: Trip{Rules: []string{RuleCount, RuleInFlight}, InFlightAge: 4e9}}, `
		14 start healthy
		15 ok healthy
		15 start hung
		18.9 state closed
		19 state open
		19.5 rejected
		31 fail hung
		31 state half-open`)
	wantChanges(t, got, "open@19", "half-open@24")
}

func TestInFlightRuleNeedsCalls(t *testing.T) {
	// Two calls must be out 4 s: the breaker opens when the second is.
	got := play(t, Settings{Trip: Trip{Rules: []string{RuleInFlight}, InFlightAge: 4e9, InFlightCalls: 2}}, `
		0 start a
		1 start b
		4.5 state closed
		5 state open`)
	wantChanges(t, got, "open@5")
}

func TestInFlightRuleFailsAnOldProbe(t *testing.T) {
	got := play(t, Settings{Trip: Trip{Rules: []string{RuleInFlight}, InFlightAge: 2e9}}, `
		0 start a
		2 state open
		7 probe b
		8.9 state half-open
		9 state open`)
	wantChanges(t, got, "open@2", "half-open@7", "open@9")
}

func TestInFlightRuleOnTimeWithoutBeingAsked(t *testing.T) {
	// On the real (here fake) clock the breaker sets its own timer: the
	// change happens at 4 s though nobody asks the breaker.
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var openedAfter atomic.Int64
		b := New(Settings{Trip: Trip{Rules: []string{RuleInFlight}, InFlightAge: 4 * time.Second},
			OnChange: func(ch Change) {
				if ch.To == Open {
					openedAfter.Store(int64(time.Since(start)))
				}
			}})
		defer b.Close()
		tk, _ := b.Allow()
		time.Sleep(10 * time.Second)
		if d := time.Duration(openedAfter.Load()); d != 4*time.Second {
			t.Fatalf("opened after %v, want 4s", d)
		}
		b.Done(tk, Failure)
	})
}
