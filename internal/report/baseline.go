package report

import (
	"fmt"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/scoring"
)

// RecordedBaseline is the baseline a journal's summary line recorded
// beside the run (drill run plays it on the virtual clock while the run
// goes on); nil when none was. A replay of the log cannot play it again,
// so readers carry the recorded figures over to the summary they fold.
func RecordedBaseline(m journal.Meta) *scoring.BaselineSummary {
	if m.Summary == nil {
		return nil
	}
	return m.Summary.Summary.Baseline
}

// baselineFacts set the run's headline figures beside its baseline's, as
// sentences: "Without breakers (the baseline, replayed on the virtual
// clock): 148 calls to the broken model during the outage against this
// run's 30; ...". Nothing when no baseline was recorded.
func baselineFacts(s scoring.Summary) []string {
	b := s.Baseline
	if b == nil {
		return nil
	}
	name := "Baseline " + format.Text(b.Policy)
	if b.Policy == "no-breakers" {
		name = "Without breakers"
	}
	if !b.Replayed() {
		calls := plain.CallsRange(b.PredictedCallsToBroken)
		return []string{fmt.Sprintf("%s (the baseline, predicted: real models cannot be replayed): %s calls to the broken model during the outage against this run's %d.",
			name, calls, s.CallsToBrokenOutage)}
	}
	all4, live := plain.All4Share(b.All4Right, b.EmailsAnswered), plain.All4Share(s.All4Right, s.EmailsAnswered)
	var notComparable []string
	if b.NotComparable != "" {
		notComparable = []string{"The baseline is not comparable with this run: " + format.Text(b.NotComparable) + "."}
	}
	return append(notComparable, fmt.Sprintf("%s (the baseline: the same drill replayed on the virtual clock, %s): %d calls to the broken model during the outage against this run's %d; "+
		"outage wait median %s, p95 %s against %s, %s; all 4 right %s against %s; errors %d against %d.",
		name, atText(b), b.CallsToBrokenOutage, s.CallsToBrokenOutage,
		format.Seconds(b.MedianWaitOutageS), format.Seconds(b.P95WaitOutageS), format.Seconds(s.MedianWaitOutageS), format.Seconds(s.P95WaitOutageS),
		all4, live, b.Served.Error, s.Served.Error))
}

// atText says when the baseline's figures were taken.
func atText(b *scoring.BaselineSummary) string {
	if b.Complete {
		return "its whole run"
	}
	return "at " + format.Secs(b.AtS) + ", where this run stopped"
}
