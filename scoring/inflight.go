package scoring

import (
	"maps"
	"slices"
	"time"

	"github.com/drill-dev/drill/event"
)

// InFlightSummary is what was in flight during the run: emails (from sent
// to done) and, per rung, calls (HTTP attempts) and emails on the rung,
// with Little's law (in flight = arrival rate × time in flight) beside the
// measured mean. It is the summary's `in_flight` object.
type InFlightSummary struct {
	// PeakEmails is the most emails in flight at once.
	PeakEmails int `json:"peak_emails"`
	// RejectedOutage counts the emails sent during the outage that the
	// worker pool rejected (--max-in-flight); served.rejected counts all.
	RejectedOutage int `json:"rejected_outage"`
	// Rungs are the model rungs that were called, by name.
	Rungs []RungInFlight `json:"rungs"`
}

// RungInFlight is one rung's calls in flight.
type RungInFlight struct {
	Rung string `json:"rung"`
	// PeakCalls and PeakEmails are the most calls and emails on the rung
	// at once.
	PeakCalls  int `json:"peak_calls"`
	PeakEmails int `json:"peak_emails"`
	// MeanCalls is the time-average of the calls in flight, from the
	// run's start to the last event.
	MeanCalls float64 `json:"mean_calls"`
	// CallsPerS is λ: calls started per second over the same time.
	CallsPerS float64 `json:"calls_per_s"`
	// MeanCallS is W: the mean time a call that ended was in flight; null
	// before any ended.
	MeanCallS *float64 `json:"mean_call_s"`
	// LittleCalls is λ × W, what Little's law says MeanCalls is once the
	// calls have ended; null with MeanCallS.
	LittleCalls *float64 `json:"little_calls"`
}

// gauge counts what is in flight and keeps its peak, its peak per second
// of the run and its integral over time (for the time-average). A level
// counts once it has held for some time: an email sent and rejected at the
// same instant was never in flight.
type gauge struct {
	now, peak int
	perSecond []int // the most in flight during each second, up to since
	area      time.Duration
	since     time.Duration // offset of the last change
}

// set moves the gauge by d at offset at.
func (g *gauge) set(at time.Duration, d int) {
	if at > g.since {
		g.hold(at)
		g.since = at
	}
	g.now = max(g.now+d, 0)
}

// hold records that the level g.now held from g.since to to.
func (g *gauge) hold(to time.Duration) {
	g.area += time.Duration(g.now) * (to - g.since)
	g.peak = max(g.peak, g.now)
	from, limit := max(g.since, 0), MaxSeriesSeconds*time.Second
	to = min(to, limit)
	if from >= to {
		return
	}
	first, last := int(from/time.Second), int((to-1)/time.Second)
	for len(g.perSecond) <= last {
		g.perSecond = append(g.perSecond, 0)
	}
	for sec := first; sec <= last; sec++ {
		g.perSecond[sec] = max(g.perSecond[sec], g.now)
	}
}

// at is the gauge as it stands at offset end (the last event folded): the
// current level held since the last change counts too.
func (g gauge) at(end time.Duration) gauge {
	g.perSecond = slices.Clone(g.perSecond)
	if end > g.since {
		g.hold(end)
		g.since = end
	}
	return g
}

// mean is the time-average up to offset end of g as it stands there
// (g.at(end)).
func (g gauge) mean(end time.Duration) float64 {
	if end <= 0 {
		return 0
	}
	return g.area.Seconds() / end.Seconds()
}

// rungEmail names one email's turn on one rung.
type rungEmail struct {
	email int
	rung  string
}

// rungFlight is one rung's calls and emails in flight.
type rungFlight struct {
	calls, emails gauge
	started       int           // calls started
	ended         int           // calls ended (paired with their start)
	inCalls       time.Duration // total time the ended calls were in flight
}

// inflightTrack folds what is in flight (inflight.go). Emails in flight
// move with the fold's email records (sentEmail and doneEmail move the
// emails gauge), and calls are paired with their starts by the fold's own
// attempt pairing (Fold.open), which hands them to callStarted and
// callEnded.
type inflightTrack struct {
	emails gauge
	rungs  map[string]*rungFlight
	onRung map[rungEmail]bool
}

func newInflightTrack() inflightTrack {
	return inflightTrack{rungs: map[string]*rungFlight{}, onRung: map[rungEmail]bool{}}
}

func (t *inflightTrack) rung(name string) *rungFlight {
	r := t.rungs[name]
	if r == nil {
		r = &rungFlight{}
		t.rungs[name] = r
	}
	return r
}

// add folds one event's emails on a rung.
func (t *inflightTrack) add(e event.Event) {
	switch e.Kind {
	case event.RungStart:
		k := rungEmail{e.Email, e.Rung}
		if !t.onRung[k] {
			t.onRung[k] = true
			t.rung(e.Rung).emails.set(e.At, 1)
		}
	case event.RungEnd:
		k := rungEmail{e.Email, e.Rung}
		if t.onRung[k] {
			delete(t.onRung, k)
			t.rung(e.Rung).emails.set(e.At, -1)
		}
	}
}

// callStarted folds an attempt_start: a call in flight on its rung. drill
// proxy's requests belong to no email and are left out.
func (t *inflightTrack) callStarted(e event.Event) {
	if e.Proxy != nil {
		return
	}
	r := t.rung(e.Rung)
	r.started++
	r.calls.set(e.At, 1)
}

// callEnded folds an attempt_end paired with its start at started.
func (t *inflightTrack) callEnded(e event.Event, started time.Duration) {
	if e.Proxy != nil {
		return
	}
	r := t.rung(e.Rung)
	r.ended++
	r.inCalls += max(e.At-started, 0)
	r.calls.set(e.At, -1)
}

// EmailsInFlight is the number of emails sent and not yet done.
func (f *Fold) EmailsInFlight() int { return f.inflight.emails.now }

// InFlight returns rung's calls and emails in flight now.
func (f *Fold) InFlight(rung string) (calls, emails int) {
	if r := f.inflight.rungs[rung]; r != nil {
		return r.calls.now, r.emails.now
	}
	return 0, 0
}

// InFlightPerSecond returns, per second of the run, the most calls and the
// most emails in flight on rung during it: the in-flight gauge over time.
func (f *Fold) InFlightPerSecond(rung string) (calls, emails []int) {
	if r := f.inflight.rungs[rung]; r != nil {
		return r.calls.at(f.last).perSecond, r.emails.at(f.last).perSecond
	}
	return nil, nil
}

// Little is Little's law for rung's calls so far: λ (calls started a
// second), W (the mean time an ended call was in flight) and λ × W; ok is
// false before any call ended.
func (f *Fold) Little(rung string) (lambda, w, l float64, ok bool) {
	r := f.inflight.rungs[rung]
	if r == nil || r.ended == 0 || f.last <= 0 {
		return 0, 0, 0, false
	}
	lambda = float64(r.started) / f.last.Seconds()
	w = r.inCalls.Seconds() / float64(r.ended)
	return lambda, w, lambda * w, true
}

// inFlightSummary is the summary's in_flight object; ws are the outage
// basis's windows.
func (f *Fold) inFlightSummary(ws []Window) InFlightSummary {
	s := InFlightSummary{PeakEmails: f.inflight.emails.at(f.last).peak, Rungs: []RungInFlight{}}
	for _, id := range f.order {
		if r := f.emails[id]; r.Done && r.Result.ServedBy == event.ServedRejected && inAny(ws, r.Sent) {
			s.RejectedOutage++
		}
	}
	for _, name := range slices.Sorted(maps.Keys(f.inflight.rungs)) {
		r := f.inflight.rungs[name]
		calls, emails := r.calls.at(f.last), r.emails.at(f.last)
		ri := RungInFlight{Rung: name, PeakCalls: calls.peak, PeakEmails: emails.peak, MeanCalls: round(calls.mean(f.last), 3)}
		if lambda, w, l, ok := f.Little(name); ok {
			ri.CallsPerS, ri.MeanCallS, ri.LittleCalls = round(lambda, 3), ptr(round(w, 3)), ptr(round(l, 3))
		} else if f.last > 0 {
			ri.CallsPerS = round(float64(r.started)/f.last.Seconds(), 3)
		}
		s.Rungs = append(s.Rungs, ri)
	}
	return s
}
