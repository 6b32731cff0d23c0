package tui

import (
	"strings"
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// TestBaselineNotComparableInTheHeader: a baseline that could not play
// what the live run played (arrivals paused by hand) says so in the
// header, with the reason, instead of a figure to compare with.
func TestBaselineNotComparableInTheHeader(t *testing.T) {
	st := asciiStyles()
	s := poolState()
	s.baseline = baselineAt(baselineStub{scoring.BaselineSummary{Policy: "no-breakers", Basis: scoring.BaselineReplayed,
		BaselineMeasured: &scoring.BaselineMeasured{CallsToBrokenOutage: 0}, NotComparable: "arrivals were paused by hand at 12.0 s"}}, s, secs(1))
	got := s.baseline.headlineSegment(st)
	if !strings.Contains(got, "not comparable: arrivals were paused by hand at 12.0 s") || strings.Contains(got, "vs 0") {
		t.Errorf("header segment %q: want the baseline marked not comparable with the reason, no figure", got)
	}
}
