package plain

import (
	"fmt"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// baselineRows are the summary's live-vs-baseline rows: the baseline
// policy, then each headline figure of the baseline with the live one
// beside it, at the same elapsed time (the baseline's own fold, or its prediction against real
// models). None without a baseline.
func baselineRows(row func(k, v string), s scoring.Summary) {
	b := s.Baseline
	if b == nil {
		return
	}
	if !b.Replayed() {
		row("baseline", fmt.Sprintf("%s, predicted (real models: it cannot be replayed)", format.Text(b.Policy)))
		calls := CallsRange(b.PredictedCallsToBroken)
		if b.PredictedCallsToBroken == nil && b.PredictedNote != "" {
			calls += " (" + b.PredictedNote + ")"
		}
		row("baseline calls to the broken model", fmt.Sprintf("%s predicted (live %d)", calls, s.CallsToBrokenOutage))
		return
	}
	at := fmt.Sprintf("at %s", format.Secs(b.AtS))
	if b.Complete {
		at = "whole run"
	}
	row("baseline", fmt.Sprintf("%s, replayed on the virtual clock (%s)", format.Text(b.Policy), at))
	if b.NotComparable != "" {
		row("baseline not comparable", format.Text(b.NotComparable))
	}
	if !NoOutage(s) {
		row("baseline calls to the broken model", fmt.Sprintf("%d (live %d)", b.CallsToBrokenOutage, s.CallsToBrokenOutage))
		row("baseline wait during outage", fmt.Sprintf("%s / %s (live %s / %s)",
			format.Seconds(b.MedianWaitOutageS), format.Seconds(b.P95WaitOutageS), format.Seconds(s.MedianWaitOutageS), format.Seconds(s.P95WaitOutageS)))
	}
	row("baseline all 4 right", fmt.Sprintf("%s (live %s)", All4Share(b.All4Right, b.EmailsAnswered), All4Share(s.All4Right, s.EmailsAnswered)))
	row("baseline errors", fmt.Sprintf("%d (live %d)", b.Served.Error, s.Served.Error))
	if s.Served.Rejected > 0 || b.Served.Rejected > 0 {
		row("baseline rejected", fmt.Sprintf("%d (live %d)", b.Served.Rejected, s.Served.Rejected))
	}
}

// inFlightRows are the worker pool's rows: its size, the emails it
// rejected, and per rung the calls in flight with Little's law beside the
// measured mean. None for a run without a pool.
func inFlightRows(row func(k, v string), s scoring.Summary) {
	in := s.InFlight
	if s.MaxInFlight == 0 || in == nil {
		return
	}
	row("worker pool (--max-in-flight)", fmt.Sprintf("%d workers: %d emails rejected, %d of them sent during the outage; at most %d of %d workers busy",
		s.MaxInFlight, s.Served.Rejected, in.RejectedOutage, in.PeakEmails, s.MaxInFlight))
	for _, r := range in.Rungs {
		little := format.Dash
		if r.LittleCalls != nil {
			little = fmt.Sprintf("%s/s × %s = %s", format.Count(r.CallsPerS), format.Seconds(r.MeanCallS), format.Count(*r.LittleCalls))
		}
		row("calls in flight, "+r.Rung, fmt.Sprintf("at most %d, mean %s; λ × W %s", r.PeakCalls, format.Count(r.MeanCalls), little))
	}
}

// CallsRange formats a predicted range of calls: "140–150", one number
// when both ends agree, or Dash when there is none.
func CallsRange(r *[2]float64) string {
	if r == nil {
		return format.Dash
	}
	lo, hi := format.Count(r[0]), format.Count(r[1])
	if lo == hi {
		return lo
	}
	return lo + "–" + hi
}

// All4Share formats a share of emails all 4 right without its interval:
// "67%", or Dash when no email was answered (answered is 0).
func All4Share(share float64, answered int) string {
	if answered == 0 {
		return format.Dash
	}
	return format.Percent(share)
}
