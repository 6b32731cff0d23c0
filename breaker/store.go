package breaker

import (
	"errors"
	"fmt"
	"time"
)

// Store keeps a breaker's state outside the process, shared by every
// breaker of the same name that uses it (drill fleet's Redis store). While
// the store answers, a breaker with Settings.Store follows the shared state
// instead of its own: the trip window lives in the store, transitions are
// atomic there, and one probe goes out across every breaker sharing it.
// When the store returns an error, the breaker decides alone with its own
// state machine (starting from the last shared state it saw) and goes back
// to the shared state as soon as the store answers again.
//
// Only the count rule (Failures within Window) is kept in a store; check
// with SharedTrip before sharing a breaker.
type Store interface {
	// Shared returns the store's latest known state of the named breaker.
	// A store learns of changes as they are published, so this needs no
	// round trip in the usual case.
	Shared(name string) (Shared, error)
	// Acquire asks, atomically, to make a call through a breaker that is
	// not closed: one open past its cooldown turns half-open, and the first
	// caller of a half-open breaker (or the first after its probe was lost)
	// gets the one probe. probe is false when the call must not go.
	Acquire(name string, p StoreParams, now time.Time) (s Shared, probe bool, err error)
	// Record counts a finished call, atomically. A failure while closed
	// joins the window and may open the breaker; a probe's result closes it
	// or opens it again. Results from another generation are dropped.
	Record(name string, p StoreParams, r StoreResult) (Shared, error)
	// Watch calls fn with every change of the named breaker the store
	// hears of, in order, until stop is called. fn must not block for long.
	Watch(name string, fn func(Shared)) (stop func())
}

// StoreParams are the settings a store applies to a shared breaker.
type StoreParams struct {
	Failures     int           // failures within Window that open it
	Window       time.Duration // the sliding window of failures
	Cooldown     time.Duration // open before a probe may go
	ProbeTimeout time.Duration // a probe with no result by then is lost
	Rule         string        // the trip rule in words, for reasons
}

// StoreResult is one finished call reported to a store.
type StoreResult struct {
	Generation uint64 // the shared generation the call was allowed in
	Probe      bool   // the call was the shared probe
	Result     Result
	At         time.Time
}

// Shared is a shared breaker's state as a store knows it.
type Shared struct {
	State      State
	Generation uint64    // increments on every change of the shared state
	OpenedAt   time.Time // when it last opened
	ProbeAt    time.Time // when the current half-open probe went out; zero if none
	Failures   int       // failures in the window at the last change
	Reason     string    // why it last changed
	At         time.Time // when it last changed
}

// ErrSharedRule is returned by SharedTrip for trip rules a store cannot keep.
var ErrSharedRule = errors.New("a shared breaker store keeps only the count rule (failures within a window)")

// SharedTrip checks that t's rules can be kept in a Store and returns the
// parameters a store applies for settings s.
func SharedTrip(s Settings) (StoreParams, error) {
	s = s.WithDefaults()
	if len(s.Trip.Rules) > 1 || (len(s.Trip.Rules) == 1 && s.Trip.Rules[0] != RuleCount) ||
		(len(s.Trip.Rules) == 0 && s.Trip.Consecutive) {
		return StoreParams{}, fmt.Errorf("%w, got %s", ErrSharedRule, s.Trip)
	}
	r := &FailuresInWindow{Failures: s.Trip.Failures, Window: s.Trip.Window}
	return StoreParams{Failures: s.Trip.Failures, Window: s.Trip.Window, Cooldown: s.Cooldown,
		ProbeTimeout: s.ProbeTimeout, Rule: r.String()}, nil
}

// allowShared is Allow through the store; ok is false when the store did
// not answer and the breaker must decide alone. Called with b.mu held.
func (b *Breaker) allowShared(now time.Time) (t Ticket, err error, ok bool) {
	p, perr := SharedTrip(b.s)
	if perr != nil {
		return Ticket{}, nil, false
	}
	sh, err := b.s.Store.Shared(b.s.Name)
	if err != nil {
		b.goLocal()
		return Ticket{}, nil, false
	}
	b.follow(sh)
	probe := false
	switch {
	case sh.State == Open && now.Before(sh.OpenedAt.Add(b.s.Cooldown)),
		sh.State == HalfOpen && !sh.ProbeAt.IsZero() && now.Before(sh.ProbeAt.Add(b.s.ProbeTimeout)):
		return Ticket{}, ErrOpen, true // known without a round trip
	case sh.State != Closed:
		sh, probe, err = b.s.Store.Acquire(b.s.Name, p, now)
		if err != nil {
			b.goLocal()
			return Ticket{}, nil, false
		}
		b.follow(sh)
		if !probe {
			return Ticket{}, ErrOpen, true
		}
	}
	return Ticket{generation: sh.Generation, start: now, probe: probe, shared: true}, nil, true
}

// finishShared is Finish through the store; false when the store did not
// answer (the result is then handled locally, as from an earlier state).
// Called with b.mu held.
func (b *Breaker) finishShared(t Ticket, o Outcome, now time.Time) bool {
	p, err := SharedTrip(b.s)
	if err != nil {
		return false
	}
	sh, err := b.s.Store.Record(b.s.Name, p, StoreResult{Generation: t.generation, Probe: t.probe, Result: o.Result, At: now})
	if err != nil {
		b.goLocal()
		return false
	}
	b.follow(sh)
	return true
}

// follow makes the breaker's state the shared one, reporting a change of
// state as this breaker sees it. Called with b.mu held.
func (b *Breaker) follow(sh Shared) {
	b.local = false
	b.openedAt = sh.OpenedAt
	if sh.State == b.state {
		return
	}
	from := b.state
	b.state = sh.State
	b.generation++
	if sh.State == Closed {
		for _, r := range b.rules {
			r.Reset()
		}
		b.tally.reset()
	}
	if b.s.OnChange != nil {
		b.s.OnChange(Change{Name: b.s.Name, From: from, To: sh.State, Generation: b.generation,
			Failures: sh.Failures, Reason: "shared: " + sh.Reason, At: sh.At})
	}
}

// goLocal starts deciding alone, from the last shared state seen.
func (b *Breaker) goLocal() {
	if !b.local {
		b.local = true
		if b.state == Open {
			b.armWake()
		}
	}
}

// watchStore makes the breaker follow the store's published changes.
func (b *Breaker) watchStore() {
	if b.s.Store == nil {
		return
	}
	b.unwatch = b.s.Store.Watch(b.s.Name, func(sh Shared) {
		b.mu.Lock()
		defer b.mu.Unlock()
		if !b.local {
			b.follow(sh)
		}
	})
}

// finishStore reports a call's outcome to the store. It returns true when
// nothing is left to do locally: the store counted it, or the call was
// allowed while deciding alone and the breaker follows the shared state
// again (its result is dropped). When the store does not answer, the
// result is counted locally, in the state the breaker follows now.
// Called with b.mu held.
func (b *Breaker) finishStore(t *Ticket, o Outcome, now time.Time) bool {
	if !t.shared {
		return !b.local
	}
	if b.finishShared(*t, o, now) {
		return true
	}
	t.shared, t.generation = false, b.generation
	return false
}
