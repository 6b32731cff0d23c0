package report

import (
	"fmt"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/scoring"
)

// predictedFacts put the run's predicted figures (the predicted_* keys,
// logged before it started) beside the measured ones, with the difference:
// "Breaker first open: measured 18.4 s, predicted 18.1–18.5 s: inside".
// A run with no prediction says why in one line; a journal that logged
// none (no figures, no note) says nothing.
func predictedFacts(s scoring.Summary) []string {
	switch {
	case s.PredictedNote != "":
		return []string{fmt.Sprintf("Predicted: nothing (%s).", s.PredictedNote)}
	case s.PredictedCallsToBroken == nil:
		return nil
	}
	rng := func(r *[2]float64) *predict.Range {
		if r == nil {
			return nil
		}
		return (*predict.Range)(r)
	}
	var facts []string
	if hasBreaker(s.PolicySettings) {
		first := fmt.Sprintf("Breaker first open: %s.", plain.Beside(s.BreakerFirstOpenS, rng(s.PredictedFirstOpenS)))
		if s.PredictedMayNeverOpen {
			first = fmt.Sprintf("Breaker first open: %s (or never: some replays of the arithmetic never open it).",
				plain.Beside(s.BreakerFirstOpenS, rng(s.PredictedFirstOpenS)))
		}
		facts = append(facts, first)
	}
	if c := s.PredictedCallsToBroken; c != nil {
		facts = append(facts, fmt.Sprintf("Calls to the broken model during the outage: %s.", plain.BesideCount(s.CallsToBrokenOutage, predict.Range(*c))))
	}
	if w := rng(s.PredictedWorstWaitS); w != nil {
		p95 := "no p95"
		if s.P95WaitOutageS != nil {
			p95 = "measured p95 " + format.Seconds(s.P95WaitOutageS)
		}
		facts = append(facts, fmt.Sprintf("Worst wait of an email sent in the outage: predicted %s (%s).", *w, p95))
	}
	return facts
}

// hasBreaker reports whether any rung of the policy has a breaker.
func hasBreaker(p scoring.PolicySummary) bool {
	for _, r := range p.Rungs {
		if r.Breaker != nil {
			return true
		}
	}
	return false
}
