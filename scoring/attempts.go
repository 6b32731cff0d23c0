package scoring

import (
	"time"

	"github.com/drill-dev/drill/event"
)

// AttemptKey names one HTTP attempt so that its attempt_start and its
// attempt_end pair: the email, the rung and the SDK's retry count, and for
// drill proxy (whose requests belong to no email) the proxy's request id.
type AttemptKey struct {
	Email   int
	ProxyID int // drill proxy's request id; 0 for a drill's own attempts
	Rung    string
	Attempt int
}

// KeyOf is the key of an attempt_start's or attempt_end's attempt.
func KeyOf(e event.Event) AttemptKey {
	k := AttemptKey{Email: e.Email, Rung: e.Rung, Attempt: e.Attempt}
	if e.Proxy != nil {
		k.ProxyID = e.Proxy.ID
	}
	return k
}

// attemptPairs holds the start of every attempt not yet ended.
type attemptPairs map[AttemptKey]time.Duration

// start records an attempt_start.
func (p attemptPairs) start(e event.Event) { p[KeyOf(e)] = e.At }

// end pairs an attempt_end with its start and forgets it; ok is false for
// an end whose start the log does not hold.
func (p attemptPairs) end(e event.Event) (started time.Duration, ok bool) {
	k := KeyOf(e)
	started, ok = p[k]
	delete(p, k)
	return started, ok
}

// earliest is the earliest start of rung's attempts not yet ended.
func (p attemptPairs) earliest(rung string) (at time.Duration, ok bool) {
	for k, started := range p {
		if k.Rung == rung && (!ok || started < at) {
			at, ok = started, true
		}
	}
	return at, ok
}

// FinishedAttempt is one HTTP attempt whose start and end the log holds.
type FinishedAttempt struct {
	Rung, Model string
	Start       time.Duration // offset of its attempt_start
	Duration    time.Duration // from its start to its end
	Outcome     event.Outcome
	Status      int
	RetryAfter  time.Duration
	// Fault is the fault drill injected into the attempt ("" for none) and
	// FaultParams its recorded parameters: what the outage was, beyond
	// what the attempt's outcome shows.
	Fault       string
	FaultParams map[string]string
}

// FinishedAttempts pairs every attempt in events (a drill's or drill
// proxy's) with its end, in the order they ended. An end without a logged
// start is left out.
func FinishedAttempts(events []event.Event) []FinishedAttempt {
	pairs := attemptPairs{}
	faults := map[AttemptKey]event.Event{}
	var out []FinishedAttempt
	for _, e := range events {
		switch e.Kind {
		case event.AttemptStart:
			pairs.start(e)
		case event.Fault:
			faults[KeyOf(e)] = e
		case event.AttemptEnd:
			k := KeyOf(e)
			f := faults[k]
			delete(faults, k)
			at, ok := pairs.end(e)
			if !ok {
				continue
			}
			out = append(out, FinishedAttempt{Rung: e.Rung, Model: e.Model, Start: at, Duration: e.At - at,
				Outcome: e.Outcome, Status: e.Status, RetryAfter: e.RetryAfter, Fault: f.Fault, FaultParams: f.FaultParams})
		}
	}
	return out
}

// TargetOf is the rung whose model a recorded run's outage breaks, as its
// run_start names it; primary when it names none.
func TargetOf(events []event.Event) string {
	for _, e := range events {
		if e.Kind == event.RunStart && e.Run != nil && e.Run.Target != "" {
			return e.Run.Target
		}
	}
	return event.ServedPrimary
}
