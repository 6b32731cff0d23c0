package scoring

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/drill-dev/drill/event"
)

// TestPredictedComesFromRunStart: the predicted_* keys are the prediction
// run_start logged, read back through the journal's JSON; a run that logged
// none says so, and a note passes through.
func TestPredictedComesFromRunStart(t *testing.T) {
	first := [2]float64{18.1, 18.5}
	logged := &event.Predicted{FirstOpenS: &first, CallsToBroken: [2]float64{102, 103}, MayNeverOpen: true}
	raw, err := json.Marshal(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Outage: "hang", Emails: 1, Predicted: logged}})
	if err != nil {
		t.Fatal(err)
	}
	var e event.Event
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	f := NewFold()
	f.Add(e)
	if f.Predicted() == nil || *f.Predicted().FirstOpenS != first {
		t.Fatalf("Fold.Predicted() = %+v", f.Predicted())
	}
	s := f.Summary()
	if s.PredictedFirstOpenS == nil || *s.PredictedFirstOpenS != first || s.PredictedCallsToBroken == nil ||
		s.PredictedCallsToBroken[1] != 103 || !s.PredictedMayNeverOpen || s.PredictedFailureS != nil || s.PredictedNote != "" {
		t.Errorf("summary predicted: %+v %+v %v %q", s.PredictedFirstOpenS, s.PredictedCallsToBroken, s.PredictedMayNeverOpen, s.PredictedNote)
	}
	figs, err := FiguresOf(s)
	if err != nil || figs["predicted_first_open_s.1"] != 18.5 {
		t.Errorf("figure predicted_first_open_s.1 = %v (%v)", figs["predicted_first_open_s.1"], err)
	}

	none := NewFold()
	none.Add(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Emails: 1}})
	if s := none.Summary(); s.PredictedNote != "" || s.PredictedCallsToBroken != nil {
		t.Errorf("no prediction logged: note %q, calls %v", s.PredictedNote, s.PredictedCallsToBroken)
	}
	noted := NewFold()
	noted.Add(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Emails: 1, Predicted: &event.Predicted{Note: "no outage"}}})
	if s := noted.Summary(); s.PredictedNote != "no outage" || s.PredictedCallsToBroken != nil {
		t.Errorf("noted prediction: note %q, calls %v", s.PredictedNote, s.PredictedCallsToBroken)
	}
}

func TestPredictionGap(t *testing.T) {
	p := [2]float64{18.1, 18.5}
	for _, tc := range []struct{ m, tol, want float64 }{
		{18.3, 0, 0}, {20, 0, 1.5}, {17, 0, -1.1}, {18.5005, 0.001, 0},
	} {
		if got := PredictionGap(tc.m, p, tc.tol); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("PredictionGap(%v, %v, %v) = %v, want %v", tc.m, p, tc.tol, got, tc.want)
		}
	}
}
