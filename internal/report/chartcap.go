package report

import (
	"fmt"

	"github.com/drill-dev/drill/internal/format"
)

// MaxChartedRuns is how many runs a report draws charts for: the first
// ones listed. Drawing a run's four charts costs about a tenth of a second
// of CPU, so a report over thousands of journals would spend minutes on
// images nobody scrolls through; every run past the cap still has its row
// in every table and its section of facts.
const MaxChartedRuns = 50

// chartedRuns is how many runs get charts: ChartedRuns, or MaxChartedRuns
// if it is 0.
func (r *Report) chartedRuns() int {
	if r.ChartedRuns > 0 {
		return r.ChartedRuns
	}
	return MaxChartedRuns
}

// charted reports whether the run at index i gets its charts.
func (r *Report) charted(i int) bool { return i < r.chartedRuns() }

// chartsCapNote says which runs have charts when some do not ("" when all
// do).
func (r *Report) chartsCapNote() string {
	n := r.chartedRuns()
	if len(r.Runs) <= n {
		return ""
	}
	return fmt.Sprintf("Charts are drawn for the first %s (%s–%s); the other %d are in the tables only. "+
		"Report on fewer journals to see their charts.",
		format.Plural(n, "run"), runTag(0), runTag(n-1), len(r.Runs)-n)
}
