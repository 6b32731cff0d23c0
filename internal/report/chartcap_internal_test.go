package report

import (
	"fmt"
	"strings"
	"testing"
)

// TestChartsCapDefault checks that a report left at its default draws
// charts for MaxChartedRuns runs, no more.
func TestChartsCapDefault(t *testing.T) {
	runs := make([]*Run, MaxChartedRuns+1)
	for i := range runs {
		runs[i] = &Run{Path: fmt.Sprintf("r%d.jsonl", i)}
	}
	r := &Report{Runs: runs}
	if got := r.chartsCapNote(); !strings.Contains(got, fmt.Sprintf("first %d runs", MaxChartedRuns)) {
		t.Errorf("note for %d runs = %q, want charts for the first %d", len(runs), got, MaxChartedRuns)
	}
	r.Runs = runs[:MaxChartedRuns]
	if got := r.chartsCapNote(); got != "" {
		t.Errorf("note for %d runs = %q, want none", len(r.Runs), got)
	}
}
