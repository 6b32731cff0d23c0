package report

import (
	"strings"
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// TestPredictedBesideMeasured: a run's facts put each predicted figure
// beside the measured one, with the difference.
func TestPredictedBesideMeasured(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	s := scoring.Summary{
		BreakerFirstOpenS: f(20), CallsToBrokenOutage: 110, P95WaitOutageS: f(17.6),
		PredictedFirstOpenS: &[2]float64{18.1, 18.5}, PredictedCallsToBroken: &[2]float64{102, 103},
		PredictedWorstWaitS: &[2]float64{16.7, 19.3},
		PolicySettings:      scoring.PolicySummary{Rungs: []scoring.RungSummary{{Name: "primary", Breaker: &scoring.BreakerSummary{}}}},
	}
	got := strings.Join(predictedFacts(s), "\n")
	for _, want := range []string{
		"Breaker first open: measured 20.0 s, predicted 18.1–18.5 s: 1.5 s later.",
		"Calls to the broken model during the outage: measured 110, predicted 102–103: 7 more.",
		"Worst wait of an email sent in the outage: predicted 16.7–19.3 s (measured p95 17.6 s).",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("facts:\n%s\nlack %q", got, want)
		}
	}
	if got := predictedFacts(scoring.Summary{PredictedNote: "no outage"}); len(got) != 1 || !strings.Contains(got[0], "no outage") {
		t.Errorf("noted: %q", got)
	}
	if got := predictedFacts(scoring.Summary{}); got != nil {
		t.Errorf("a journal without a prediction: %q, want nothing", got)
	}
}
