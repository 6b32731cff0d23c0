package chat

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/breaker"
)

// TestStatusBreakerTakesTheNextOutcomeAsTheTrialsVerdict: the simulation's
// status breaker is told a time and a verdict for every primary outcome
// (breaker.record(task.now, outcome in seen)), not which call it came from.
// Half-open, it lets one trial call through and sends the others to the
// fallback; the first primary outcome to arrive decides, so a trial that
// streams slowly for 150 s does not hold every call on the fallback
// meanwhile: another call's 200 (a slow call that started before the breaker
// opened) closes it, and the trial's own 200 later counts as any call's.
func TestStatusBreakerTakesTheNextOutcomeAsTheTrialsVerdict(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := breaker.New(*StatusBreaker())
		defer b.Close()
		for range breakerFailures {
			b.Observe(breaker.Failure)
		}
		if b.State() != breaker.Open {
			t.Fatalf("after %d failures: %s, want open", breakerFailures, b.State())
		}
		b.Observe(breaker.Success) // a slow call that started before ends: open stays open
		if b.State() != breaker.Open {
			t.Fatalf("a 200 while open: %s, want open for its %s", b.State(), breakerCooldown)
		}
		time.Sleep(breakerCooldown)
		trial, err := b.Allow()
		if err != nil || !trial.Probe() {
			t.Fatalf("after the cooldown: %v, probe %v: want the trial call", err, trial.Probe())
		}
		if _, err := b.Allow(); err == nil {
			t.Fatal("a second call while the trial is out went to the primary, want the fallback")
		}
		time.Sleep(time.Second)
		b.Observe(breaker.Success) // another call's 200, while the trial streams on
		if s := b.State(); s != breaker.Closed {
			t.Fatalf("a 200 while half-open: %s, want closed", s)
		}
		time.Sleep(SlowCallSeconds * time.Second)
		b.Observe(breaker.Success) // the trial's own 200
		b.Done(trial, breaker.Ignored)
		if s := b.State(); s != breaker.Closed {
			t.Errorf("after the slow trial's 200: %s, want closed", s)
		}
	})
}
