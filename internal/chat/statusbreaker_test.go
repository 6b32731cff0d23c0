package chat

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/breaker"
)

// TestStatusBreakerJudgesItsTrialByItsOutcome: the simulation's status
// breaker sees only what the checks that are on call failures (alone,
// refusals); a trial call that streams slowly for 150 s and ends with a 200
// closes it. A probe timeout would make the breaker see the slowness the
// simulation says it cannot: it would open again 30 s into the trial.
func TestStatusBreakerJudgesItsTrialByItsOutcome(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := breaker.New(*StatusBreaker())
		defer b.Close()
		for range breakerFailures {
			tk, err := b.Allow()
			if err != nil {
				t.Fatal(err)
			}
			b.Done(tk, breaker.Failure)
		}
		if b.State() != breaker.Open {
			t.Fatalf("after %d failures: %s, want open", breakerFailures, b.State())
		}
		time.Sleep(breakerCooldown)
		trial, err := b.Allow()
		if err != nil || !trial.Probe() {
			t.Fatalf("after the cooldown: %v, probe %v: want the trial call", err, trial.Probe())
		}
		time.Sleep(SlowCallSeconds * time.Second)
		if s := b.State(); s != breaker.HalfOpen {
			t.Errorf("%d s into a slow trial: %s, want half-open (waiting for its outcome)", SlowCallSeconds, s)
		}
		b.Done(trial, breaker.Success)
		if s := b.State(); s != breaker.Closed {
			t.Errorf("after the slow trial's 200: %s, want closed", s)
		}
	})
}
