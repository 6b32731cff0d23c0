package scoring

import (
	"time"

	"github.com/drill-dev/drill/event"
)

// Breaker states as the engine records them.
const (
	StateClosed   = "closed"
	StateOpen     = "open"
	StateHalfOpen = "half-open"
)

// BreakerChange is one change of a breaker's state.
type BreakerChange struct {
	At       time.Duration
	From, To string
	Reason   string
}

// Span is a period of a run, as offsets from its start.
type Span struct {
	Start, End time.Duration
}

// BreakerTally is what the fold knows of one breaker: its state, every
// change, how often it opened and its half-open probes (the calls the
// engine logged with the probe flag).
type BreakerTally struct {
	Name    string
	State   string // closed, open, half-open
	Changes []BreakerChange
	Opens   int
	// FirstOpen is the first open at or after the start of the outage
	// that concerns the breaker, relative to it (Fold.FirstOpen); nil if never.
	FirstOpen *time.Duration
	// Probes counts calls admitted as half-open probes; ProbesOK and
	// ProbesFailed those that ended, ProbesRunning those still going.
	Probes, ProbesOK, ProbesFailed, ProbesRunning int
}

// breakerTrack is the fold's running state of one breaker.
type breakerTrack struct {
	BreakerTally
	pending map[int]bool // emails whose call on this rung is a probe still running
}

func (f *Fold) breaker(name string) *breakerTrack {
	b := f.breakers[name]
	if b == nil {
		b = &breakerTrack{BreakerTally: BreakerTally{Name: name, State: StateClosed}, pending: map[int]bool{}}
		f.breakers[name] = b
		f.breakerOrder = append(f.breakerOrder, name)
	}
	return b
}

func (f *Fold) breakerChange(e event.Event) {
	name := e.Breaker.Name
	if name == "" {
		name = e.Rung
	}
	b := f.breaker(name)
	b.State = e.Breaker.To
	b.Changes = append(b.Changes, BreakerChange{At: e.At, From: e.Breaker.From, To: e.Breaker.To, Reason: e.Breaker.Reason})
	if e.Breaker.To == StateOpen {
		b.Opens++
	}
}

func (f *Fold) probeStart(e event.Event) {
	b := f.breaker(e.Rung)
	if b.pending[e.Email] {
		return
	}
	b.pending[e.Email] = true
	b.Probes++
}

func (f *Fold) probeEnd(e event.Event) {
	b := f.breakers[e.Rung]
	if b == nil || !b.pending[e.Email] {
		return
	}
	delete(b.pending, e.Email)
	if e.Outcome == event.OK {
		b.ProbesOK++
	} else {
		b.ProbesFailed++
	}
}

// Breakers lists the breakers' names in the chain's order (as the run's
// info lists them, then any other in order of appearance).
func (f *Fold) Breakers() []string { return f.breakerOrder }

// Breaker returns the tally of the breaker guarding rung. Its FirstOpen is
// the fold's one first-open figure for it (Fold.FirstOpen).
func (f *Fold) Breaker(rung string) BreakerTally {
	b := f.breakers[rung]
	if b == nil {
		return BreakerTally{Name: rung, State: StateClosed}
	}
	t := b.BreakerTally
	t.ProbesRunning = len(b.pending)
	t.Changes = append([]BreakerChange(nil), b.Changes...)
	t.FirstOpen = f.FirstOpen(rung)
	return t
}

// firstOpenAfter is the first open at or after the first window's start,
// relative to it.
func firstOpenAfter(changes []BreakerChange, ws []Window) *time.Duration {
	if len(ws) == 0 {
		return nil
	}
	for _, c := range changes {
		if c.To == StateOpen && c.At >= ws[0].From {
			d := c.At - ws[0].From
			return &d
		}
	}
	return nil
}

// BreakerSpans returns the periods rung's breaker was open (from opening to
// half-open or closed); one still open ends at end.
func (f *Fold) BreakerSpans(rung string, end time.Duration) []Span {
	b := f.breakers[rung]
	if b == nil {
		return nil
	}
	var out []Span
	var since *time.Duration
	for _, c := range b.Changes {
		if c.To == StateOpen {
			if since == nil {
				at := c.At
				since = &at
			}
		} else if since != nil {
			out = append(out, Span{*since, c.At})
			since = nil
		}
	}
	if since != nil {
		out = append(out, Span{*since, max(end, *since)})
	}
	return out
}
