package report

import (
	"fmt"

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
		first := fmt.Sprintf("Breaker first open: %s.", predict.Beside(s.BreakerFirstOpenS, rng(s.PredictedFirstOpenS)))
		if s.PredictedMayNeverOpen {
			first = fmt.Sprintf("Breaker first open: %s (or never: some replays of the arithmetic never open it).",
				predict.Beside(s.BreakerFirstOpenS, rng(s.PredictedFirstOpenS)))
		}
		facts = append(facts, first)
	}
	if c := s.PredictedCallsToBroken; c != nil {
		measured := float64(s.CallsToBrokenOutage)
		facts = append(facts, fmt.Sprintf("Calls to the broken model during the outage: %s.", callsBeside(measured, predict.Range(*c))))
	}
	if w := rng(s.PredictedWorstWaitS); w != nil {
		p95 := "no p95"
		if s.P95WaitOutageS != nil {
			p95 = fmt.Sprintf("measured p95 %.1f s", *s.P95WaitOutageS)
		}
		facts = append(facts, fmt.Sprintf("Worst wait of an email sent in the outage: predicted %s (%s).", *w, p95))
	}
	return facts
}

// callsBeside is predict.Beside for a count of calls.
func callsBeside(measured float64, p predict.Range) string {
	diff := "inside"
	switch {
	case measured < p[0]:
		diff = fmt.Sprintf("%.0f fewer", p[0]-measured)
	case measured > p[1]:
		diff = fmt.Sprintf("%.0f more", measured-p[1])
	}
	pred := fmt.Sprintf("%.0f–%.0f", p[0], p[1])
	if p[0] == p[1] {
		pred = fmt.Sprintf("%.0f", p[0])
	}
	return fmt.Sprintf("measured %.0f, predicted %s: %s", measured, pred, diff)
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
