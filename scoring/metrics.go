package scoring

import "github.com/drill-dev/drill/event"

// CallLevel says which of drill's two kinds of call an event is about (the
// README's "calls and SDK requests"): a rung's call, all SDK retries
// included, or one HTTP attempt below the SDK.
type CallLevel int

// Call levels.
const (
	// RungCall is a rung's call for an email: rung_start, rung_end,
	// rung_skipped.
	RungCall CallLevel = iota + 1
	// HTTPAttempt is one HTTP attempt: attempt_start, attempt_end.
	HTTPAttempt
)

// CallMark is what one event does to the calls a live counter follows
// (package metrics): a call starting, or a call ending with its outcome.
// A rung passed over by its open breaker ends (outcome breaker_open)
// without having started.
type CallMark struct {
	Level CallLevel
	Rung  string
	Model string
	// Started: the call began (and is in flight until it ends).
	Started bool
	// Ended: the call finished with Outcome; Skipped, when it never
	// started because its breaker was open.
	Ended   bool
	Skipped bool
	Outcome event.Outcome
}

// CallMarkOf classifies an event for call counters. Counting the ended
// rung calls whose outcome is not ok, by rung and outcome, gives exactly
// the fold's FailedCalls; counting the ended HTTP attempts gives every
// attempt the fold's failure windows count.
func CallMarkOf(e event.Event) (CallMark, bool) {
	m := CallMark{Rung: e.Rung, Model: e.Model, Outcome: e.Outcome}
	switch e.Kind {
	case event.RungStart:
		m.Level, m.Started = RungCall, true
	case event.RungEnd:
		m.Level, m.Ended = RungCall, true
	case event.RungSkipped:
		m.Level, m.Ended, m.Skipped = RungCall, true, true
	case event.AttemptStart:
		m.Level, m.Started = HTTPAttempt, true
	case event.AttemptEnd:
		m.Level, m.Ended = HTTPAttempt, true
	default:
		return CallMark{}, false
	}
	return m, true
}

// Waits returns the waits of the emails answered so far (cancelled ones
// have no real wait and are left out), in the order they were sent: the
// same waits the summary's outage quantiles take their subset of.
func (f *Fold) Waits() []float64 {
	return f.waitsIn([]Window{{Window: event.Window{From: minOffset, To: -1}}})
}

// minOffset is earlier than any event's offset: a window from it with no
// end holds every email.
const minOffset = -1 << 62
