package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/scoring"
)

// WriteFleetTable writes fleet drills side by side as Markdown (FleetTable).
func WriteFleetTable(w io.Writer, fleets []scoring.FleetSummary) error {
	if len(fleets) == 0 {
		return nil
	}
	return FleetTable(fleets).Markdown(w)
}

// FleetTable is fleet drills side by side: one column per drill (e.g. the
// local store against the shared one), a row per fleet figure, then one
// row per replica with its calls to the broken model, its breaker's first
// open and opens, and who served its emails.
func FleetTable(fleets []scoring.FleetSummary) plain.Table {
	head := []string{"Figure"}
	for _, f := range fleets {
		head = append(head, fmt.Sprintf("%d replicas, %s store", f.Replicas, f.BreakerStore))
	}
	t := plain.Table{Head: head}
	fig := func(name string, v func(scoring.FleetSummary) string) {
		cells := []string{name}
		for _, f := range fleets {
			cells = append(cells, v(f))
		}
		t.Rows = append(t.Rows, cells)
	}
	fig("Outage / policy", func(f scoring.FleetSummary) string { return f.Fleet.Outage + " / " + f.Fleet.Policy })
	fig("primary / backup / canned / error", func(f scoring.FleetSummary) string { return plain.Served(f.Fleet.Served) })
	fig("Calls to broken model, outage", func(f scoring.FleetSummary) string { return fmt.Sprint(f.Fleet.CallsToBrokenOutage) })
	fig("Breaker opens (all replicas)", func(f scoring.FleetSummary) string { return fmt.Sprint(f.Fleet.BreakerOpens) })
	fig("First open (earliest replica)", func(f scoring.FleetSummary) string { return format.Seconds(f.Fleet.BreakerFirstOpenS) })
	fig("Typical / p95 wait, outage", func(f scoring.FleetSummary) string {
		return format.Seconds(f.Fleet.MedianWaitOutageS) + " / " + format.Seconds(f.Fleet.P95WaitOutageS)
	})
	fig("Fallbacks to local breakers", func(f scoring.FleetSummary) string { return fmt.Sprint(f.StoreFallbacks) })
	n := 0
	for _, f := range fleets {
		n = max(n, len(f.PerReplica))
	}
	for k := range n {
		fig(fmt.Sprintf("Replica %d: broken calls · first open · opens · served", k+1), func(f scoring.FleetSummary) string {
			if k >= len(f.PerReplica) {
				return "—"
			}
			r := f.PerReplica[k]
			return fmt.Sprintf("%d · %s · %d · %s", r.CallsToBrokenOutage, format.Seconds(r.BreakerFirstOpenS), r.BreakerOpens,
				plain.Served(r.Served))
		})
	}
	return t
}

// fleetMarkdown writes the fleet runs side by side (local against shared
// breakers), if the report has any.
func (r *Report) fleetMarkdown(w io.Writer) {
	var fleets []scoring.FleetSummary
	var tags []string
	for i, run := range r.Runs {
		if run.Fleet != nil {
			fleets = append(fleets, *run.Fleet)
			tags = append(tags, runTag(i))
		}
	}
	if len(fleets) == 0 {
		return
	}
	fmt.Fprintf(w, "## Fleets: per-replica and shared breakers\n\nRuns %s, side by side. Calls to the broken model, opens and served counts per replica come from the same fold as the fleet's figures; a replica's first open is when its breaker opened, or when it learnt that the shared one had.\n\n", strings.Join(tags, ", "))
	_ = WriteFleetTable(w, fleets)
	fmt.Fprintln(w)
}
