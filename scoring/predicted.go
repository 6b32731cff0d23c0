package scoring

import (
	"fmt"

	"github.com/drill-dev/drill/event"
)

// Predicted returns the prediction the run logged in its run_start (the
// breaker-trip arithmetic done before it started), or nil when it logged
// none. Scoring reads it from the events alone: the caller that started
// the run computed it.
func (f *Fold) Predicted() *event.Predicted { return f.Info.Predicted }

// predictedInto sets the summary's predicted_* figures from the logged
// prediction. A run that logged none (a journal from before predictions
// were logged, or drill proxy's) leaves them null with no note, so its
// recorded summary line and a summary recomputed from it agree.
func (f *Fold) predictedInto(s *Summary) {
	p := f.Predicted()
	if p == nil {
		return
	}
	if p.Note != "" {
		s.PredictedNote = p.Note
		return
	}
	if kind := f.OutageKind(); kind != f.Info.Outage {
		// An outage started by hand of another kind: the arithmetic was
		// done for the planned one and says nothing about this one.
		s.PredictedNote = fmt.Sprintf("predicted for a %s outage; the outage was %s, started by hand", f.Info.Outage, kind)
		return
	}
	s.PredictedFailureS, s.PredictedNthFailureS = p.FailureS, p.NthFailureS
	s.PredictedFirstOpenS, s.PredictedMayNeverOpen = p.FirstOpenS, p.MayNeverOpen
	s.PredictedWorstWaitS = p.WorstWaitS
	calls := p.CallsToBroken
	s.PredictedCallsToBroken = &calls
}

// PredictionGap is how far a measured figure falls outside its predicted
// range [low, high]: negative below low (earlier, fewer), positive above
// high (later, more), 0 inside it or within tolerance of it. The breaker
// pane, drill replay and reports all set measured beside predicted with it.
func PredictionGap(measured float64, predicted [2]float64, tolerance float64) float64 {
	switch {
	case measured < predicted[0]-tolerance:
		return measured - predicted[0]
	case measured > predicted[1]+tolerance:
		return measured - predicted[1]
	}
	return 0
}
