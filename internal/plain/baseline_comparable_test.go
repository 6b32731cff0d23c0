package plain

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// TestSummaryBaselineNotComparable: the summary table says a baseline
// that could not play what the run played is not comparable, and why.
func TestSummaryBaselineNotComparable(t *testing.T) {
	s := scoring.Summary{Baseline: &scoring.BaselineSummary{Policy: "no-breakers", Basis: scoring.BaselineReplayed,
		BaselineMeasured: &scoring.BaselineMeasured{Complete: true}, NotComparable: "arrivals were paused by hand at 12.0 s"}}
	var b bytes.Buffer
	if err := Summary(&b, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "baseline not comparable") || !strings.Contains(b.String(), "paused by hand at 12.0 s") {
		t.Errorf("summary:\n%s", b.String())
	}
}
