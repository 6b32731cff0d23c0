package report

import (
	"context"

	"github.com/drill-dev/drill/internal/journal"
)

// runCharts are a charted run's four images: its three charts and its
// small multiple.
type runCharts struct {
	Charts
	Small []byte
}

// renderRunCharts draws the charts of every run that gets charts
// (charted), on the report's shared scales, one run per processor at
// once: drawing and compressing the images is most of writing a report,
// and each run's are drawn alone. The result is indexed as r.Runs (zero
// for the runs without charts); the images are the same whatever the
// order they are drawn in. The error is the first in the runs' order.
func (r *Report) renderRunCharts(sc Scales) ([]runCharts, error) {
	n := min(len(r.Runs), r.chartedRuns())
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return journal.Parallel(context.Background(), idx, func(_ context.Context, i int) (runCharts, error) {
		run := r.Runs[i]
		c, err := renderCharts(run, r.DPI, sc)
		if err != nil {
			return runCharts{}, err
		}
		small, err := SmallEmailChart(run, runTag(i), r.DPI, sc)
		return runCharts{Charts: c, Small: small}, err
	})
}
