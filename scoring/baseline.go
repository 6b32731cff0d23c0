package scoring

import (
	"time"

	"github.com/drill-dev/drill/event"
)

// The bases of a baseline's figures.
const (
	// BaselineReplayed: the baseline policy was played on the same
	// emails, seed and outage on the virtual clock, and its figures are
	// this fold over its own log.
	BaselineReplayed = "replayed"
	// BaselinePredicted: the models are real and the baseline cannot be
	// replayed; its figures are drill predict's arithmetic for the
	// baseline policy.
	BaselinePredicted = "predicted"
)

// BaselineSummary is the baseline beside the live run: the same drill
// played with the baseline policy (by default the same chain without
// breakers), at the same elapsed time as the live run. It is the
// summary's `baseline` object. Replayed, its measured figures
// (BaselineMeasured) are the fold of the baseline's own log (Baseline.At);
// predicted, they are absent and only the predicted ranges are set.
type BaselineSummary struct {
	Policy string `json:"policy"` // the baseline policy's name
	Basis  string `json:"basis"`  // replayed or predicted
	// BaselineMeasured is nil for the predicted basis: its keys are then
	// left out of the JSON rather than written as zeros.
	*BaselineMeasured
	// The prediction for the baseline policy (predicted basis; the
	// replayed basis carries its own run's too).
	PredictedCallsToBroken *[2]float64 `json:"predicted_calls_to_broken"`
	PredictedWorstWaitS    *[2]float64 `json:"predicted_worst_wait_s"`
	PredictedNote          string      `json:"predicted_note"`
	// NotComparable, when set, is why the baseline did not play what the
	// live run played (HandChanges.NotComparable: arrivals paused by
	// hand), so its figures are no fair comparison; outages started or
	// ended by hand are replayed, and leave it empty.
	NotComparable string `json:"not_comparable,omitempty"`
}

// BaselineMeasured are a replayed baseline's figures, each as the live
// summary's key of the same name.
type BaselineMeasured struct {
	// AtS is the elapsed time, seconds from the start, the figures are
	// compared at: the live run's, or the whole baseline once the live run
	// has completed.
	AtS float64 `json:"at_s"`
	// Complete is true when the figures cover the whole baseline run.
	Complete            bool     `json:"complete"`
	EmailsSent          int      `json:"emails_sent"`
	EmailsAnswered      int      `json:"emails_answered"`
	Served              Served   `json:"served"`
	All4Right           float64  `json:"all4_right"`
	MedianWaitOutageS   *float64 `json:"median_wait_outage_s"`
	P95WaitOutageS      *float64 `json:"p95_wait_outage_s"`
	WaitsOutage         int      `json:"waits_outage"`
	CallsToBrokenOutage int      `json:"calls_to_broken_outage"`
	BreakerOpens        int      `json:"breaker_opens"`
}

// Replayed reports whether the baseline was played (its measured figures
// are set), not predicted.
func (b *BaselineSummary) Replayed() bool { return b != nil && b.BaselineMeasured != nil }

// baselineOf takes the baseline's figures from its summary: one
// definition of every figure, the live run's.
func baselineOf(s Summary, policy string, at time.Duration, complete bool) BaselineSummary {
	return BaselineSummary{Policy: policy, Basis: BaselineReplayed,
		BaselineMeasured: &BaselineMeasured{AtS: round(at.Seconds(), 3), Complete: complete,
			EmailsSent: s.EmailsSent, EmailsAnswered: s.EmailsAnswered, Served: s.Served, All4Right: s.All4Right,
			MedianWaitOutageS: s.MedianWaitOutageS, P95WaitOutageS: s.P95WaitOutageS, WaitsOutage: s.WaitsOutage,
			CallsToBrokenOutage: s.CallsToBrokenOutage, BreakerOpens: s.BreakerOpens},
		PredictedCallsToBroken: s.PredictedCallsToBroken, PredictedWorstWaitS: s.PredictedWorstWaitS,
		PredictedNote: s.PredictedNote}
}

// PredictedBaseline is the baseline against real endpoints, where it
// cannot be replayed: the prediction for the baseline policy.
func PredictedBaseline(policy string, p *event.Predicted) BaselineSummary {
	b := BaselineSummary{Policy: policy, Basis: BaselinePredicted}
	switch {
	case p == nil:
		b.PredictedNote = "nothing predicted"
	case p.Note != "":
		b.PredictedNote = p.Note
	default:
		calls := p.CallsToBroken
		b.PredictedCallsToBroken, b.PredictedWorstWaitS = &calls, p.WorstWaitS
	}
	return b
}

// Baseline folds a finished baseline run's log up to the live run's
// elapsed time: the dashboard asks at every tick, and the elapsed time
// only grows, so each event is read and folded once, and the fold's
// summary is taken again only when an event was. The log is read as it is
// needed (NewBaselineFrom), so a long baseline is never held whole. Not
// safe for concurrent use.
type Baseline struct {
	policy  string
	next    func() (event.Event, bool) // the log's next event; false past its end
	pending *event.Event               // read, not yet folded: after the live run's time
	ended   bool                       // next said the log has ended
	fold    *Fold
	sum     *Summary // the fold's summary of what was folded; nil until taken, or after more were folded
}

// NewBaseline follows the log of a finished baseline run played with the
// named policy.
func NewBaseline(policy string, events []event.Event) *Baseline {
	i := 0
	return NewBaselineFrom(policy, func() (event.Event, bool) {
		if i == len(events) {
			return event.Event{}, false
		}
		i++
		return events[i-1], true
	})
}

// NewBaselineFrom follows the log of a finished baseline run played with
// the named policy, read in order from next (false at its end).
func NewBaselineFrom(policy string, next func() (event.Event, bool)) *Baseline {
	return &Baseline{policy: policy, next: next, fold: NewFold()}
}

// peek is the log's next event not yet folded, nil at its end.
func (b *Baseline) peek() *event.Event {
	if b.pending == nil && !b.ended {
		if e, ok := b.next(); ok {
			b.pending = &e
		} else {
			b.ended = true
		}
	}
	return b.pending
}

// At returns the baseline's figures at the live run's elapsed time, or
// over the whole baseline when whole is set (the live run has completed:
// its figures are final, and so are the baseline's). An earlier at than
// a previous call's folds nothing more.
func (b *Baseline) At(at time.Duration, whole bool) BaselineSummary {
	for e := b.peek(); e != nil && (whole || e.At <= at); e = b.peek() {
		b.fold.Add(*e)
		b.pending = nil
		b.sum = nil
	}
	complete := b.peek() == nil
	if whole || complete {
		at = b.fold.Elapsed()
	}
	if b.sum == nil {
		s := b.fold.Summary()
		b.sum = &s
	}
	return baselineOf(*b.sum, b.policy, at, complete)
}

// Email is email id's record in the baseline's fold as far as At has
// folded it (the live run's elapsed time), a copy the caller may keep:
// the Emails pane draws the baseline's bar under the live one from it.
func (b *Baseline) Email(id int) (EmailRecord, bool) {
	r, ok := b.fold.Email(id)
	if !ok || !r.SentKnown {
		return EmailRecord{}, false
	}
	return *r, true
}
