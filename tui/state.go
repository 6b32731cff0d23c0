package tui

import (
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// Breaker state names as the engine records them.
const (
	stateClosed   = "closed"
	stateOpen     = "open"
	stateHalfOpen = "half-open"
)

// attempt is one HTTP attempt (or a rung passed over) of one email, for the
// detail view.
type attempt struct {
	rung    string
	model   string
	n       int // SDK retry count; 0 is the first try
	start   time.Duration
	end     time.Duration
	ended   bool
	outcome event.Outcome
	status  int
	fault   string
	breaker string // the breaker state the rung's call met
	skipped bool   // the rung was passed over: its breaker was open
}

// row is one email's line in the Emails pane.
type row struct {
	id       int
	sent     time.Duration
	done     bool
	end      time.Duration
	servedBy string
	attempts []attempt
	streams  []event.Event // stream_end events of streamed calls (--stream)
	version  int           // bumped on every change, so cached renders know they are stale
}

// change is one breaker transition.
type change struct {
	at time.Duration
	to string
}

// breakerTrack is one breaker's history.
type breakerTrack struct {
	name      string
	state     string
	changes   []change
	probes    int
	probeOK   int
	probeFail int
	pending   map[int]bool // emails whose call on this rung is a probe still running
}

// state is everything the dashboard shows, folded from the run's events. It
// is the only place events are interpreted; the panes only render it.
type state struct {
	fold    *scoring.Fold
	summary scoring.Summary // fold.Summary(), refreshed after each batch
	dirty   bool

	rows  []*row
	index map[int]int // email id -> rows index

	breakers map[string]*breakerTrack
	order    []string // breaker names in chain order

	models map[string]string // rung -> model name

	paused   bool
	last     time.Duration // offset of the last event
	ended    bool          // run_end seen
	winStamp int           // bumped when outage windows change
	byHand   bool          // the latest outage was started by hand
}

func newState() *state {
	return &state{
		fold:     scoring.NewFold(),
		index:    map[int]int{},
		breakers: map[string]*breakerTrack{},
		models:   map[string]string{},
	}
}

// addAll folds a batch of events and refreshes the summary once.
func (s *state) addAll(evs []event.Event) {
	for _, e := range evs {
		s.add(e)
	}
	s.refresh()
}

// refresh recomputes the summary if events arrived since the last call.
func (s *state) refresh() {
	if s.dirty {
		s.summary = s.fold.Summary()
		s.dirty = false
	}
}

func (s *state) add(e event.Event) {
	s.fold.Add(e)
	s.dirty = true
	s.last = e.At
	switch e.Kind {
	case event.RunStart:
		if e.Run == nil {
			break
		}
		for _, r := range e.Run.Rungs {
			if r.Model != "" {
				s.models[r.Name] = r.Model
			}
			if r.HasBreaker {
				s.breaker(r.Name)
			}
		}
	case event.OutageStart:
		s.winStamp++
		s.byHand = e.Detail == event.ByHand
	case event.OutageEnd:
		s.winStamp++
	case event.EmailSent:
		if _, ok := s.index[e.Email]; ok {
			break
		}
		s.index[e.Email] = len(s.rows)
		s.rows = append(s.rows, &row{id: e.Email, sent: e.At})
	case event.RungStart:
		if b := s.breakers[e.Rung]; b != nil && b.state == stateHalfOpen {
			b.probes++
			b.pending[e.Email] = true
		}
	case event.RungEnd:
		if b := s.breakers[e.Rung]; b != nil && b.pending[e.Email] {
			delete(b.pending, e.Email)
			if e.Outcome == event.OK {
				b.probeOK++
			} else {
				b.probeFail++
			}
		}
	case event.AttemptStart:
		if e.Model != "" && s.models[e.Rung] == "" {
			s.models[e.Rung] = e.Model
		}
		if r := s.row(e.Email); r != nil {
			bs := stateClosed
			if b := s.breakers[e.Rung]; b != nil {
				bs = b.state
			} else {
				bs = ""
			}
			r.attempts = append(r.attempts, attempt{rung: e.Rung, model: e.Model, n: e.Attempt, start: e.At, breaker: bs})
			r.version++
		}
	case event.Fault:
		if r := s.row(e.Email); r != nil {
			if a := r.open(e.Rung, e.Attempt); a != nil {
				a.fault = e.Fault
			}
		}
	case event.AttemptEnd:
		if r := s.row(e.Email); r != nil {
			if a := r.open(e.Rung, e.Attempt); a != nil {
				a.end, a.ended, a.outcome, a.status = e.At, true, e.Outcome, e.Status
				r.version++
			}
		}
	case event.StreamEnd:
		if r := s.row(e.Email); r != nil {
			r.streams = append(r.streams, e)
			r.version++
		}
	case event.RungSkipped:
		if r := s.row(e.Email); r != nil {
			r.attempts = append(r.attempts, attempt{rung: e.Rung, model: e.Model, start: e.At, end: e.At, ended: true, skipped: true, breaker: stateOpen})
			r.version++
		}
	case event.BreakerChange:
		if e.Breaker == nil {
			break
		}
		b := s.breaker(e.Breaker.Name)
		b.state = e.Breaker.To
		b.changes = append(b.changes, change{at: e.At, to: e.Breaker.To})
	case event.EmailDone:
		if r := s.row(e.Email); r != nil && !r.done && e.Result != nil {
			r.done, r.end, r.servedBy = true, e.At, e.Result.ServedBy
			r.version++
		}
	case event.Paused:
		s.paused = true
	case event.Resumed:
		s.paused = false
	case event.RunEnd:
		s.ended = true
		s.paused = false
	}
}

func (s *state) breaker(name string) *breakerTrack {
	b := s.breakers[name]
	if b == nil {
		b = &breakerTrack{name: name, state: stateClosed, pending: map[int]bool{}}
		s.breakers[name] = b
		s.order = append(s.order, name)
	}
	return b
}

func (s *state) row(id int) *row {
	if i, ok := s.index[id]; ok {
		return s.rows[i]
	}
	return nil
}

// open returns the email's latest unfinished attempt on rung with retry
// count n.
func (r *row) open(rung string, n int) *attempt {
	for i := len(r.attempts) - 1; i >= 0; i-- {
		a := &r.attempts[i]
		if a.rung == rung && a.n == n && !a.ended && !a.skipped {
			return a
		}
	}
	return nil
}

// outage describes the outage's status at offset now: "before", "active" or
// "over", the active window's start, and its scheduled end if known.
type outageStatus struct {
	phase   string // before, active, over
	left    time.Duration
	hasLeft bool
	byHand  bool
	fromS   float64
	toS     float64
}

func (s *state) outage(now time.Duration) outageStatus {
	info := s.fold.Info
	o := outageStatus{phase: "before", fromS: info.OutageFromS, toS: info.OutageToS}
	ws := s.fold.Windows
	if len(ws) == 0 {
		if info.Outage == "" || info.Outage == "none" {
			o.phase = "none"
		}
		return o
	}
	w := ws[len(ws)-1]
	if w.End >= 0 {
		o.phase = "over"
		return o
	}
	o.phase = "active"
	sched := time.Duration(info.OutageFromS * float64(time.Second))
	end := time.Duration(info.OutageToS * float64(time.Second))
	switch {
	case s.byHand || info.OutageToS <= 0 || absDur(w.Start-sched) >= time.Second:
		o.byHand = true
	case end > now:
		o.left, o.hasLeft = end-now, true
	}
	return o
}

// outageActive reports whether an outage window is open now.
func (s *state) outageActive() bool {
	ws := s.fold.Windows
	return len(ws) > 0 && ws[len(ws)-1].End < 0
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
