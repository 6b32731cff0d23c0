// Package breaker is drill's circuit breaker: closed, open and half-open,
// with trip rules that can be combined (one file each), a generation
// counter that drops stale results (or counts them, as the chapter's lab
// breaker did), customer or synthetic half-open probes, Retry-After
// honouring, and a callback for every change of state. It knows nothing of
// HTTP, SDKs or emails: callers ask Allow before a call and report the
// call's outcome, once, after all of its retries.
package breaker

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/drill-dev/drill/internal/format"
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
// or half-open with its probes already in flight.
var ErrOpen = errors.New("breaker: circuit open")

// Result is the outcome of one call, as the breaker counts it.
type Result int

// Call results.
const (
	// Success is a call that worked.
	Success Result = iota
	// Failure is a failure that can go away on its own (timeout,
	// connection error, 5xx, and whatever the caller chose to count).
	Failure
	// Ignored is an outcome that says nothing about the service's health
	// (a 4xx, a cancelled run); it releases a probe slot without a verdict.
	Ignored
)

// Outcome is a call's result with what the server said about retrying.
type Outcome struct {
	Result Result
	// RetryAfter is the server's Retry-After, if it sent one. An open
	// breaker with RetryAfterHonour stays open at least this long after
	// the call ended.
	RetryAfter time.Duration
}

// Change is one change of state, with a snapshot of the calls that ended
// within the trip window.
type Change struct {
	Name       string
	From, To   State
	Generation uint64 // the generation that starts with this change
	Failures   int    // failures in the window at the change
	Successes  int    // successes in the window at the change
	Reason     string
	At         time.Time
}

// Breaker is a circuit breaker. It is safe for concurrent use. Call Close
// when done with a breaker that has a Synthetic probe or runs on the real
// clock, so none of its timers or goroutines outlive it.
type Breaker struct {
	s     Settings
	rules []Rule
	// inFlight is whether the in-flight rule is in force, decided once:
	// without it no call in flight is looked at or timed.
	inFlight bool

	mu         sync.Mutex
	state      State
	generation uint64
	openedAt   time.Time
	holdUntil  time.Time // Retry-After: stay open until at least then
	probeOK    int       // probe successes in this half-open state
	tally      window    // every counted call within the trip window, for snapshots
	flights    map[uint64]*flight
	nextID     uint64
	wake       *time.Timer // the end of the cooldown
	timed      bool        // the breaker sets its own timers (real or synctest clock)
	closed     bool

	synthCtx    context.Context
	synthCancel context.CancelFunc
	synthWG     sync.WaitGroup
	synthing    bool

	local   bool   // with a Store: it did not answer, so the breaker decides alone
	unwatch func() // stops following the Store's published changes
}

// flight is a call in progress.
type flight struct {
	start      time.Time
	generation uint64
	probe      bool
	aged       bool        // counted by the in-flight rule
	timer      *time.Timer // wakes the breaker when the call reaches an age that matters
}

// New returns a closed breaker. Invalid settings fall back to their
// defaults; check them first with Settings.Validate.
func New(s Settings) *Breaker {
	timed := s.Now == nil
	s = s.WithDefaults()
	if timed {
		s.Now = time.Now
	}
	b := &Breaker{s: s, rules: s.Trip.rules(), inFlight: s.Trip.Has(RuleInFlight), flights: map[uint64]*flight{}, timed: timed}
	b.tally.span = s.Trip.Window
	b.synthCtx, b.synthCancel = context.WithCancel(context.Background())
	b.watchStore()
	return b
}

// Name is the breaker's name.
func (b *Breaker) Name() string { return b.s.Name }

// Settings returns the breaker's settings with their defaults filled in.
func (b *Breaker) Settings() Settings { return b.s }

// State returns the current state, after applying the changes that time
// alone makes (see advance).
func (b *Breaker) State() State {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.s.Store != nil && !b.local {
		return b.state // the shared state, as last seen
	}
	b.advance(b.s.Now())
	return b.state
}

// Ticket is a permission to make one call, tied to the generation it was
// issued in; report the call's result with Done or Finish, exactly once.
type Ticket struct {
	id         uint64
	generation uint64
	probe      bool
	start      time.Time
	shared     bool // allowed by the Store's shared state
}

// Probe reports whether this call is a half-open probe.
func (t Ticket) Probe() bool { return t.probe }

// Allow asks to make a call. It returns ErrOpen when the breaker is open, or
// half-open with all its probe slots taken (always, with a synthetic probe).
func (b *Breaker) Allow() (Ticket, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.s.Now()
	if b.s.Store != nil {
		if t, err, ok := b.allowShared(now); ok {
			return t, err
		}
	}
	b.advance(now)
	t := Ticket{generation: b.generation, start: now}
	switch b.state {
	case Open:
		return Ticket{}, ErrOpen
	case HalfOpen:
		if b.s.Synthetic != nil || (b.s.Probes != ProbesAll && b.probesInFlight() >= int(b.s.Probes)) {
			return Ticket{}, ErrOpen
		}
		t.probe = true
	}
	b.nextID++
	t.id = b.nextID
	if b.inFlight || t.probe {
		// Only the in-flight rule and half-open probes look at calls in
		// flight: any other call is not tracked (nor allocated, nor timed).
		f := &flight{start: now, generation: t.generation, probe: t.probe}
		b.flights[t.id] = f
		b.armFlight(f)
	}
	return t, nil
}

// Done reports the result of a call allowed by t.
func (b *Breaker) Done(t Ticket, r Result) { b.Finish(t, Outcome{Result: r}) }

// Finish reports the outcome of a call allowed by t. Results from a
// generation that has ended (the breaker changed state since the call was
// allowed) are dropped unless Stale is StaleCount.
func (b *Breaker) Finish(t Ticket, o Outcome) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.s.Now()
	if f := b.flights[t.id]; f != nil {
		if f.timer != nil {
			f.timer.Stop()
		}
		delete(b.flights, t.id)
	}
	if b.s.Store != nil && b.finishStore(&t, o, now) {
		return
	}
	b.advance(now)
	if b.s.RetryAfter == RetryAfterHonour && o.RetryAfter > 0 {
		if until := now.Add(o.RetryAfter); until.After(b.holdUntil) {
			b.holdUntil = until
			if b.state == Open {
				b.armWake()
			}
		}
	}
	if o.Result == Ignored {
		return
	}
	call := Call{At: now, Duration: now.Sub(t.start), Failed: o.Result == Failure}
	if t.generation != b.generation {
		if b.s.Stale == StaleCount {
			b.stale(call)
		}
		return
	}
	switch b.state {
	case Closed:
		b.record(call)
	case HalfOpen:
		if t.probe {
			b.probeOutcome(call, now)
		}
	}
}

// probeOutcome is a half-open breaker's verdict on a trial call: a failure
// opens it again, a success closes it once Probes of them have come back.
func (b *Breaker) probeOutcome(call Call, now time.Time) {
	if call.Failed {
		b.set(Open, now, "probe failed")
		return
	}
	b.probeOK++
	if b.s.Probes == ProbesAll || b.probeOK >= int(b.s.Probes) {
		b.set(Closed, now, "probe succeeded")
	}
}

// record feeds a counted call to the trip rules of a closed breaker.
func (b *Breaker) record(c Call) {
	b.tally.add(c)
	for _, r := range b.rules {
		if r.Record(c) {
			b.set(Open, c.At, r.Reason(c.At))
			return
		}
	}
}

// stale applies a result from an earlier generation (StaleCount).
func (b *Breaker) stale(c Call) {
	switch b.state {
	case Closed:
		b.record(c)
	case Open:
		if c.Failed {
			b.openedAt = c.At // restart the cooldown
			b.armWake()
		}
	case HalfOpen:
		if c.Failed && b.s.Synthetic == nil {
			b.set(Open, c.At, "late failure of a call from an earlier state")
		}
	}
}

// advance applies the changes that time alone makes, in time order: open →
// half-open after the cooldown (and any Retry-After), a lost or too-old
// probe → open, and calls older than the in-flight age → open.
func (b *Breaker) advance(now time.Time) {
	for {
		switch b.state {
		case Open:
			at := b.reopenAt()
			if b.s.Synthetic != nil || now.Before(at) {
				return
			}
			b.set(HalfOpen, at, "cooldown elapsed")
		case HalfOpen:
			at, reason, ok := b.probeVerdict(now)
			if !ok {
				return
			}
			b.set(Open, at, reason)
		case Closed:
			at, reason, ok := b.inFlightTrip(now)
			if !ok {
				return
			}
			b.set(Open, at, reason)
		}
	}
}

// reopenAt is when an open breaker turns half-open.
func (b *Breaker) reopenAt() time.Time {
	at := b.openedAt.Add(b.s.Cooldown)
	if b.holdUntil.After(at) {
		at = b.holdUntil
	}
	return at
}

// probesInFlight counts the current half-open generation's probes.
func (b *Breaker) probesInFlight() int {
	n := 0
	for _, f := range b.flights {
		if f.probe && f.generation == b.generation {
			n++
		}
	}
	return n
}

// probeVerdict finds the earliest probe of this half-open state that has
// been out longer than the probe timeout (or the in-flight age, when that
// rule is in force).
func (b *Breaker) probeVerdict(now time.Time) (time.Time, string, bool) {
	var at time.Time
	var reason string
	for _, f := range b.flights {
		if !f.probe || f.generation != b.generation {
			continue
		}
		limit, why := b.probeLimit()
		if due := f.start.Add(limit); !now.Before(due) && (at.IsZero() || due.Before(at)) {
			at, reason = due, why
		}
	}
	return at, reason, !at.IsZero()
}

// probeLimit is how long a probe may go unanswered before it counts as
// failed, and why: its timeout, or the in-flight age when that rule is on
// and sooner.
func (b *Breaker) probeLimit() (time.Duration, string) {
	if b.inFlight && b.s.Trip.InFlightAge < b.s.ProbeTimeout {
		return b.s.Trip.InFlightAge, "probe unanswered after " + format.GoDuration(b.s.Trip.InFlightAge)
	}
	return b.s.ProbeTimeout, "probe lost: no result within " + format.GoDuration(b.s.ProbeTimeout)
}

// set changes state and starts a new generation.
func (b *Breaker) set(to State, at time.Time, reason string) {
	from := b.state
	b.state = to
	b.generation++
	b.probeOK = 0
	switch to {
	case Open:
		b.openedAt = at
		b.armWake()
		b.startSynthetic()
	case Closed:
		for _, r := range b.rules {
			r.Reset()
		}
		b.tally.reset()
		b.holdUntil = time.Time{}
	}
	f, s := b.tally.counts(at)
	if b.s.OnChange != nil {
		b.s.OnChange(Change{Name: b.s.Name, From: from, To: to, Generation: b.generation,
			Failures: f, Successes: s, Reason: reason, At: at})
	}
}

// armWake sets the timer that moves an open breaker to half-open on time.
func (b *Breaker) armWake() {
	if !b.timed || b.closed || b.s.Synthetic != nil {
		return
	}
	if b.wake != nil {
		b.wake.Stop()
	}
	b.wake = time.AfterFunc(b.reopenAt().Sub(b.s.Now()), func() { b.State() })
}

// armFlight sets the timer that wakes the breaker when a call reaches the
// age at which it matters: the in-flight age, or a probe's timeout.
func (b *Breaker) armFlight(f *flight) {
	if !b.timed || b.closed {
		return
	}
	var d time.Duration
	switch {
	case f.probe:
		d, _ = b.probeLimit()
	case b.inFlight:
		d = b.s.Trip.InFlightAge
	default:
		return
	}
	f.timer = time.AfterFunc(d, func() { b.State() })
}

// Close stops the breaker's timers and its synthetic probe, waiting for a
// probe in progress to return. The breaker still answers Allow afterwards,
// but changes no longer happen on time by themselves.
func (b *Breaker) Close() {
	if b.unwatch != nil {
		b.unwatch()
	}
	b.mu.Lock()
	b.closed = true
	if b.wake != nil {
		b.wake.Stop()
	}
	for _, f := range b.flights {
		if f.timer != nil {
			f.timer.Stop()
		}
	}
	b.mu.Unlock()
	b.synthCancel()
	b.synthWG.Wait()
}
