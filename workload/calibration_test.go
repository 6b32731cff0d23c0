package workload

import (
	"math"
	"testing"
	"testing/synctest"
)

// labAll4 is the chapter's lab table's all-4-right for each of the eight
// runs (busy tone, then hang: mini alone, fallback, fallback + breaker, fail
// fast + breaker), measured against the real models.
var labAll4 = map[[2]string]float64{
	{"busy", "primary-only"}: 0.58, {"busy", "fallback"}: 0.93, {"busy", "breaker"}: 0.89, {"busy", "fail-fast"}: 0.88,
	{"hang", "primary-only"}: 0.72, {"hang", "fallback"}: 0.93, {"hang", "breaker"}: 0.91, {"hang", "fail-fast"}: 0.88,
}

// TestQualityAsTheLabMeasured: with the built-in models (mini 97.5 %, nano
// 72 % all 4 right on the 120) and the data set's order (six of nano's
// misses among the 48 emails sent during the outage, five right after it),
// every run's all-4-right lands within 4 points of the lab's.
func TestQualityAsTheLabMeasured(t *testing.T) {
	for _, row := range chapterRows {
		t.Run(row.outage+"/"+row.policy, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s, _, _ := runDrill(t, chapterConfig(t, row.outage, row.policy))
				lab, ok := labAll4[[2]string{row.outage, row.policy}]
				if !ok {
					t.Fatalf("no lab figure for %s/%s", row.outage, row.policy)
				}
				t.Logf("all 4 right %.4f, lab %.2f (served %+v)", s.All4Right, lab, s.Served)
				if d := math.Abs(s.All4Right - lab); d > 0.04 {
					t.Errorf("all 4 right %.4f is %.3f from the lab's %.2f (more than 0.04)", s.All4Right, d, lab)
				}
			})
		})
	}
}
