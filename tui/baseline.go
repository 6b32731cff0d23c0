package tui

import (
	"fmt"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/scoring"
)

// BaselineSource is a drill's baseline as the dashboard reads it: the same
// drill played with the baseline policy (session.Baseline). The figures
// come from the fold over the baseline's own log; the dashboard only asks
// for them at the live run's elapsed time.
type BaselineSource interface {
	// Name is the baseline policy (no-breakers, or a preset).
	Name() string
	// At is the baseline at the live run's elapsed time, or whole once
	// the live run has completed; false while it still plays.
	At(elapsed time.Duration, whole bool) (scoring.BaselineSummary, bool)
	// Email is email id in the replayed baseline as far as the last At
	// folded it; false while it plays, for a predicted baseline (it has no
	// log) and for an email the baseline has not sent by then.
	Email(id int) (scoring.EmailRecord, bool)
}

// recordedBaseline is the baseline a journal's summary line recorded
// beside the run (report.RecordedBaseline): its figures at the end of the
// live run (over its whole run when the live run completed), the same at
// every replayed time, and no log, so no per-email bars.
type recordedBaseline struct{ sum scoring.BaselineSummary }

// Name is the baseline policy the journal recorded.
func (r recordedBaseline) Name() string { return r.sum.Policy }

// At is the recorded figures, whatever the elapsed time.
func (r recordedBaseline) At(time.Duration, bool) (scoring.BaselineSummary, bool) { return r.sum, true }

// Email is never known: the journal holds no baseline log.
func (r recordedBaseline) Email(int) (scoring.EmailRecord, bool) { return scoring.EmailRecord{}, false }

// baselineView is what the panes show of the baseline: nothing without
// one, "playing" until its figures are known, then its figures at now
// (or, replaying a journal, the figures it recorded at the run's end).
type baselineView struct {
	name     string // "" without a baseline
	sum      *scoring.BaselineSummary
	src      BaselineSource // for the per-email bars; nil without a baseline
	recorded bool           // the journal's recorded figures, not at the replayed time
}

// baselineAt reads src at the live run's elapsed time now; whole once the
// live run has completed.
func baselineAt(src BaselineSource, s *state, now time.Duration) baselineView {
	if src == nil {
		return baselineView{}
	}
	_, recorded := src.(recordedBaseline)
	v := baselineView{name: src.Name(), src: src, recorded: recorded}
	whole := s.ended() && s.fold.Status() == event.StatusCompleted
	if sum, ok := src.At(now, whole); ok {
		v.sum = &sum
	}
	return v
}

// replayed reports whether the baseline was played beside this run and
// its figures are known: only then has it per-email bars (a journal's
// recorded figures have none).
func (v baselineView) replayed() bool { return !v.recorded && v.sum != nil && v.sum.Replayed() }

// when says what time a recorded baseline's figures are from: "whole run",
// or "at 45.0 s" where the live run stopped; "" for a baseline played
// beside the run (its figures are at the same elapsed time).
func (v baselineView) when() string {
	switch {
	case !v.recorded || v.sum == nil || !v.sum.Replayed():
		return ""
	case v.sum.Complete:
		return "whole run"
	}
	return "at " + format.Secs(v.sum.AtS)
}

// email is email id in the replayed baseline at the live run's elapsed
// time, from the baseline's own fold.
func (v baselineView) email(id int) (*scoring.EmailRecord, bool) {
	if !v.replayed() {
		return nil, false
	}
	r, ok := v.src.Email(id)
	return &r, ok
}

// toggleRefusal is why the baseline's bars cannot be shown, for the
// footer; "" when they can (the baseline may still be playing).
func (v baselineView) toggleRefusal() string {
	switch {
	case v.name == "":
		return "no baseline here (a replay, or --baseline none): no baseline bars to show"
	case v.recorded && v.sum.Replayed():
		return "no replayed baseline: the journal holds only the baseline's figures (" + v.when() + ", in the header), no per-email bars"
	case v.sum != nil && !v.sum.Replayed():
		return "no replayed baseline: against real endpoints the baseline is predicted, with no per-email bars"
	}
	return ""
}

// label names the baseline in a segment: "without breakers" for the
// default, else the preset.
func (v baselineView) label() string {
	if v.name == "no-breakers" {
		return "without breakers"
	}
	return "with " + v.name
}

// headlineSegment is the header's baseline beside the live calls to the
// broken model: "148 without breakers" (or predicted, or still playing).
// Empty without a baseline.
func (v baselineView) headlineSegment(st Styles) string {
	switch {
	case v.name == "":
		return ""
	case v.sum == nil:
		return st.Dim.Render("baseline playing…")
	case !v.sum.Replayed():
		return st.Dim.Render("baseline " + v.label() + " " + plain.CallsRange(v.sum.PredictedCallsToBroken) + " calls (predicted)")
	case v.sum.NotComparable != "":
		return st.Dim.Render("baseline " + v.label() + " not comparable: " + format.Text(v.sum.NotComparable))
	case v.recorded:
		return st.Dim.Render(fmt.Sprintf("recorded baseline, %s: %d %s", v.when(), v.sum.CallsToBrokenOutage, v.label()))
	}
	return st.Dim.Render(fmt.Sprintf("vs %d %s", v.sum.CallsToBrokenOutage, v.label()))
}

// breakerLines are the Breaker pane's baseline lines: calls to the broken
// model and breaker opens at the same elapsed time (the opens alone in a
// run with no outage).
func (v baselineView) breakerLines(st Styles, s *state, w int) []string {
	if v.name == "" {
		return nil
	}
	if v.sum == nil {
		return []string{st.Dim.Render("baseline " + v.label() + ": playing…")}
	}
	live := s.fold.CallsToBroken()
	if !v.sum.Replayed() {
		return []string{pick(w,
			fmt.Sprintf("calls to broken: live %d, %s %s (predicted)", live, v.label(), plain.CallsRange(v.sum.PredictedCallsToBroken)),
			fmt.Sprintf("calls live %d, baseline %s (pred.)", live, plain.CallsRange(v.sum.PredictedCallsToBroken)))}
	}
	if s.fold.NoOutage() && !v.recorded {
		// No outage: no model was broken, so only the opens compare.
		return []string{pick(w,
			fmt.Sprintf("no outage: breaker opens live %d, %s %d", s.fold.Breaker(s.fold.Target()).Opens, v.label(), v.sum.BreakerOpens),
			fmt.Sprintf("opens live %d, base %d", s.fold.Breaker(s.fold.Target()).Opens, v.sum.BreakerOpens))}
	}
	if v.recorded {
		return []string{pick(w,
			fmt.Sprintf("calls to broken: now %d; recorded baseline %s, %s: %d (opens %d)", live, v.label(), v.when(), v.sum.CallsToBrokenOutage, v.sum.BreakerOpens),
			fmt.Sprintf("calls now %d; baseline %s: %d", live, v.when(), v.sum.CallsToBrokenOutage),
			fmt.Sprintf("calls %d, base %s %d", live, v.when(), v.sum.CallsToBrokenOutage))}
	}
	return []string{pick(w,
		fmt.Sprintf("calls to broken: live %d, %s %d (opens %d)", live, v.label(), v.sum.CallsToBrokenOutage, v.sum.BreakerOpens),
		fmt.Sprintf("calls to broken: live %d, baseline %d", live, v.sum.CallsToBrokenOutage),
		fmt.Sprintf("calls live %d, base %d", live, v.sum.CallsToBrokenOutage))}
}

// qualityLines are the Quality pane's baseline lines: who served, all four
// right and the outage waits of the baseline at the same elapsed time.
func (v baselineView) qualityLines(w int) []string {
	if v.name == "" || v.sum == nil || !v.sum.Replayed() {
		return nil
	}
	b := v.sum
	sv := b.Served
	name := "baseline"
	if v.recorded {
		name = "baseline (" + v.when() + ")" // the journal's figures, not at the replayed time
	}
	out := []string{pick(w,
		fmt.Sprintf("%s %s: primary %d  backup %d  canned %d  error %d", name, v.label(), sv.Primary, sv.Backup, sv.Canned, sv.Error),
		fmt.Sprintf("%s: P %d  B %d  C %d  E %d", name, sv.Primary, sv.Backup, sv.Canned, sv.Error))}
	all4 := plain.All4Share(b.All4Right, b.EmailsAnswered)
	if b.WaitsOutage > 0 {
		med, p95 := format.Seconds(b.MedianWaitOutageS), format.Seconds(b.P95WaitOutageS)
		out = append(out, pick(w,
			fmt.Sprintf("baseline all 4 right %s, outage wait median %s, p95 %s", all4, med, p95),
			fmt.Sprintf("baseline all4 %s, wait p50 %s p95 %s", all4, med, p95),
			fmt.Sprintf("base p50 %s p95 %s", med, p95)))
	} else {
		out = append(out, pick(w, "baseline all 4 right "+all4, "base all4 "+all4))
	}
	return out
}
