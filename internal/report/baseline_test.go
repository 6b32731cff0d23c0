package report

import (
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// TestBaselineFacts: the report sets the run's figures beside the
// baseline the journal recorded, replayed or predicted, and says nothing
// without one.
func TestBaselineFacts(t *testing.T) {
	if RecordedBaseline(journal.Meta{}) != nil || baselineFacts(scoring.Summary{}) != nil {
		t.Error("a baseline out of a journal that recorded none")
	}
	p95, base := 2.3, 2.6
	s := scoring.Summary{CallsToBrokenOutage: 30, P95WaitOutageS: &p95, EmailsAnswered: 120, All4Right: 0.89,
		Baseline: &scoring.BaselineSummary{Policy: "no-breakers", Basis: scoring.BaselineReplayed, BaselineMeasured: &scoring.BaselineMeasured{
			Complete: true, CallsToBrokenOutage: 148, P95WaitOutageS: &base, EmailsAnswered: 120, All4Right: 0.925}}}
	m := journal.Meta{Summary: &journal.SummaryLine{Summary: s}}
	if RecordedBaseline(m) != s.Baseline {
		t.Error("the recorded baseline was not carried over")
	}
	got := strings.Join(baselineFacts(s), " ")
	for _, want := range []string{"Without breakers", "its whole run", "148 calls to the broken model during the outage against this run's 30", "p95 2.6 s against", "2.3 s", "all 4 right 93% against 89%"} {
		if !strings.Contains(got, want) {
			t.Errorf("facts lack %q: %s", want, got)
		}
	}
	s.Baseline = &scoring.BaselineSummary{Policy: "no-breakers", Basis: scoring.BaselinePredicted, PredictedCallsToBroken: &[2]float64{146, 148}}
	if got := strings.Join(baselineFacts(s), " "); !strings.Contains(got, "predicted") || !strings.Contains(got, "146–148 calls") {
		t.Errorf("predicted baseline facts: %s", got)
	}
}
