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
