package report

import (
	"strings"
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// TestBaselineFactsNotComparable: the report says a baseline that could
// not play what the run played is not comparable, and why.
func TestBaselineFactsNotComparable(t *testing.T) {
	s := scoring.Summary{Baseline: &scoring.BaselineSummary{Policy: "no-breakers", Basis: scoring.BaselineReplayed,
		BaselineMeasured: &scoring.BaselineMeasured{Complete: true}, NotComparable: "arrivals were paused by hand at 12.0 s"}}
	if got := strings.Join(baselineFacts(s), " "); !strings.Contains(got, "not comparable with this run: arrivals were paused by hand at 12.0 s") {
		t.Errorf("facts: %s", got)
	}
}
