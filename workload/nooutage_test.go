package workload

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/scoring"
)

// TestNoOutageTightTimeouts: on the built-in model with no outage, a 1 s
// limit and no retries (below the model's latency for some emails) makes
// timeouts and trips the breaker, and the drill reports them as failures
// on a healthy day: no calls to a broken model, no first open into an
// outage. It reported an observed outage, 39 calls to the broken model and
// a first open 3.5 s into it.
func TestNoOutageTightTimeouts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := chapterConfig(t, OutageNone, "breaker")
		cfg.Policy.Primary.TimeLimit, cfg.Policy.Primary.Retries = time.Second, 0
		s, _, _ := runDrill(t, cfg)
		if len(s.Observed) == 0 || s.Observed[0].FailedAttempts == 0 {
			t.Fatalf("observed %+v: want the primary's timeouts counted as failed calls", s.Observed)
		}
		if s.OutageBasis != scoring.BasisNone || s.CallsToBrokenOutage != 0 || s.BreakerFirstOpenS != nil || s.WaitsOutage != 0 {
			t.Errorf("basis %s, calls to broken %d, first open %v, waits during the outage %d; want none, 0, null, 0",
				s.OutageBasis, s.CallsToBrokenOutage, s.BreakerFirstOpenS, s.WaitsOutage)
		}
	})
}
