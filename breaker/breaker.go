// Package breaker is drill's circuit breaker: closed, open and half-open,
// with a pluggable trip rule, a generation counter that drops stale results,
// and a callback for every change of state. It knows nothing of HTTP, SDKs
// or emails: callers ask Allow before a call and report the call's outcome,
// once, after all of its retries.
package breaker

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// State is a breaker's state.
type State int

// The three states.
const (
	Closed State = iota
	Open
	HalfOpen
)

// String names the state as drill shows it in events and journals.
func (s State) String() string {
	switch s {
	case Closed:
		return "closed"
	case Open:
		return "open"
	case HalfOpen:
		return "half-open"
	}
	return fmt.Sprintf("state(%d)", int(s))
}

// ErrOpen is returned by Allow when the breaker rejects a call: it is open,
// or half-open with its probe already in flight.
var ErrOpen = errors.New("breaker: circuit open")

// Result is the outcome of one call, as the breaker counts it.
type Result int

// Call results.
const (
	// Success is a call that worked.
	Success Result = iota
	// Failure is a failure that can go away on its own (timeout,
	// connection error, 5xx): the only kind a breaker counts.
	Failure
	// Ignored is an outcome that says nothing about the service's health
	// (a 4xx, a cancelled run); it releases a probe slot without a verdict.
	Ignored
)

// Change is one change of state, with a snapshot of the trip rule's window.
type Change struct {
	Name       string
	From, To   State
	Generation uint64 // the generation that starts with this change
	Failures   int    // failures in the window at the change
	Successes  int    // successes in the window at the change
	Reason     string
	At         time.Time
}

// Settings configures a Breaker. The zero value is safe: it is the default
// rule of drill (5 failures within 10 s, 5 s open, one probe) with no callback.
type Settings struct {
	// Name identifies the breaker in changes (usually the rung it guards).
	Name string
	// Trip is the rule that opens a closed breaker. The zero value is
	// 5 failures within 10 s.
	Trip Trip
	// Cooldown is how long the breaker stays open before it lets a probe
	// through. Zero means 5 s.
	Cooldown time.Duration
	// ProbeTimeout bounds how long a half-open breaker waits for its probe's
	// result: a probe that never reports back is counted as failed, so a
	// lost probe cannot leave the breaker stuck. Zero means 30 s.
	ProbeTimeout time.Duration
	// OnChange, if set, is called for every change of state, in order,
	// with the breaker's lock held: it must not call back into the breaker.
	OnChange func(Change)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Breaker is a circuit breaker. It is safe for concurrent use.
type Breaker struct {
	s    Settings
	rule Rule

	mu         sync.Mutex
	state      State
	generation uint64
	openedAt   time.Time
	probeAt    time.Time // when the current probe was let through; zero if none
}

// New returns a closed breaker.
func New(s Settings) *Breaker {
	if s.Cooldown <= 0 {
		s.Cooldown = 5 * time.Second
	}
	if s.ProbeTimeout <= 0 {
		s.ProbeTimeout = 30 * time.Second
	}
	if s.Now == nil {
		s.Now = time.Now
	}
	return &Breaker{s: s, rule: s.Trip.rule()}
}

// Name is the breaker's name.
func (b *Breaker) Name() string { return b.s.Name }

// State returns the current state, moving an open breaker whose cooldown has
// passed to half-open first.
func (b *Breaker) State() State {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.advance(b.s.Now())
	return b.state
}

// Ticket is a permission to make one call, tied to the generation it was
// issued in; report the call's result with Done.
type Ticket struct {
	generation uint64
	probe      bool
}

// Probe reports whether this call is the half-open probe.
func (t Ticket) Probe() bool { return t.probe }

// Allow asks to make a call. It returns ErrOpen when the breaker is open, or
// half-open with its probe in flight.
func (b *Breaker) Allow() (Ticket, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.s.Now()
	b.advance(now)
	switch b.state {
	case Open:
		return Ticket{}, ErrOpen
	case HalfOpen:
		if !b.probeAt.IsZero() {
			return Ticket{}, ErrOpen
		}
		b.probeAt = now
		return Ticket{generation: b.generation, probe: true}, nil
	}
	return Ticket{generation: b.generation}, nil
}

// Done reports the result of a call allowed by t. Results from a generation
// that has ended (the breaker changed state since the call was allowed) are
// dropped: a call that started while closed and failed after the breaker
// opened says nothing new.
func (b *Breaker) Done(t Ticket, r Result) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.s.Now()
	b.advance(now)
	if t.generation != b.generation {
		return
	}
	switch b.state {
	case Closed:
		switch r {
		case Success:
			b.rule.Success(now)
		case Failure:
			if b.rule.Failure(now) {
				f, s := b.rule.Counts(now)
				b.set(Open, now, fmt.Sprintf("%s: %d failures", b.rule, f), f, s)
			}
		}
	case HalfOpen:
		if !t.probe {
			return
		}
		switch r {
		case Success:
			b.set(Closed, now, "probe succeeded", 0, 1)
		case Failure:
			b.set(Open, now, "probe failed", 1, 0)
		default:
			b.probeAt = time.Time{} // no verdict: let the next call probe
		}
	}
}

// advance applies the changes that time alone makes: open → half-open after
// the cooldown, and a lost probe → open.
func (b *Breaker) advance(now time.Time) {
	if b.state == Open && !now.Before(b.openedAt.Add(b.s.Cooldown)) {
		b.set(HalfOpen, b.openedAt.Add(b.s.Cooldown), "cooldown elapsed", 0, 0)
	}
	if b.state == HalfOpen && !b.probeAt.IsZero() && !now.Before(b.probeAt.Add(b.s.ProbeTimeout)) {
		b.set(Open, b.probeAt.Add(b.s.ProbeTimeout), "probe lost: no result within "+b.s.ProbeTimeout.String(), 1, 0)
		b.advance(now)
	}
}

func (b *Breaker) set(to State, at time.Time, reason string, failures, successes int) {
	from := b.state
	b.state = to
	b.generation++
	b.probeAt = time.Time{}
	switch to {
	case Open:
		b.openedAt = at
	case Closed:
		b.rule.Reset()
	}
	if b.s.OnChange != nil {
		b.s.OnChange(Change{Name: b.s.Name, From: from, To: to, Generation: b.generation,
			Failures: failures, Successes: successes, Reason: reason, At: at})
	}
}
