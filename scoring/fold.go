package scoring

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

// Options choose what a fold keeps beyond the summary.
type Options struct {
	// Attempts keeps every email's attempts (EmailRecord.Attempts), for
	// the dashboard's detail view. Off, memory grows with emails only.
	Attempts bool
}

// Fold folds a run's events, in order, into every figure drill shows: the
// live dashboard, drill run, replay, the journal's summary line and reports
// all use it, so a number means the same everywhere. It is composed of
// small parts: served and quality (emails.go), waits and the summary
// (summary.go), breaker spans, opens and probes (breakers.go), per-second
// attempt series (series.go) and outage windows, injected and observed
// (windows.go). A Fold is not safe for concurrent use.
type Fold struct {
	// Info is the run's setup, from run_start.
	Info event.RunInfo
	// Windows are the injected outage windows, as the injector applied them.
	Windows []Window

	opts     Options
	emails   map[int]*EmailRecord
	order    []int // email numbers in the order they were sent
	served   Served
	quality  FieldCounts
	byServed map[string]*FieldCounts
	doneBy   map[string][]time.Duration // server -> offsets of the emails it answered, in log order
	broken   int                        // fault events: attempts to the broken model faulted by the injector

	breakers     map[string]*breakerTrack
	breakerOrder []string
	series       series
	starts       map[string]*startCount // rung -> its attempt starts in its observed failure window
	open         attemptPairs           // attempts started and not yet ended
	failures     map[string]*failureTrack
	failed       map[string]map[event.Outcome]int // rung -> outcome -> calls that did not answer

	hedged   int // rung calls started as a hedge
	unscored int // emails answered without a right answer to score against

	cost     costTrack     // tokens and cost of every attempt (cost.go)
	inflight inflightTrack // emails and calls in flight (inflight.go)

	alerts   map[string]*alertTrack // alert name -> what was received of it (alerts.go)
	received []ReceivedAlert
	// droppedAlerts counts the alerts the receiver did not log (alerts.go).
	droppedAlerts int

	paused bool
	clock  string // the RunClock event's detail; "" means real
	last   time.Duration
	ended  bool
	end    event.RunEndInfo
	detail string
	truth  truthFunc

	classOf map[int]classOf // email -> its classes, in a run with routes (classes.go)
}

// NewFold returns an empty fold that scores answers against the built-in
// data set.
func NewFold() *Fold { return NewFoldWith(Options{}) }

// NewFoldWith returns an empty fold with options.
func NewFoldWith(opts Options) *Fold {
	return &Fold{
		opts:     opts,
		emails:   map[int]*EmailRecord{},
		byServed: map[string]*FieldCounts{},
		doneBy:   map[string][]time.Duration{},
		breakers: map[string]*breakerTrack{},
		series:   newSeries(),
		starts:   map[string]*startCount{},
		open:     attemptPairs{},
		failures: map[string]*failureTrack{},
		failed:   map[string]map[event.Outcome]int{},
		inflight: newInflightTrack(),
		// Only journals whose events carry no truth use this; they were all
		// recorded before the data set's order was arranged. Past the data
		// set, emails cycle through it.
		truth: emails.NthOriginalOrder,
	}
}

// Summarize folds a whole run.
func Summarize(events []event.Event) Summary {
	f := NewFold()
	f.AddAll(events)
	return f.Summary()
}

// AddAll folds events in order.
func (f *Fold) AddAll(events []event.Event) {
	for _, e := range events {
		f.Add(e)
	}
}

// Add folds one event. Events must come in log order. Any event is safe to
// fold: offsets out of range and unknown kinds never panic.
func (f *Fold) Add(e event.Event) {
	f.last = e.At
	f.cost.add(e)
	f.inflight.add(e)
	switch e.Kind {
	case event.RunStart:
		f.runStart(e)
	case event.OutageStart:
		f.outageStart(e)
	case event.OutageEnd:
		f.outageEnd(e)
	case event.EmailSent:
		f.sentEmail(e)
		f.classSent(e)
	case event.RungStart:
		if e.Probe {
			f.probeStart(e)
		}
		if e.Hedged {
			f.hedged++
		}
	case event.AttemptStart:
		f.attemptStart(e)
	case event.Fault:
		f.fault(e)
	case event.AttemptEnd:
		f.attemptEnd(e)
	case event.StreamEnd:
		if r := f.keptRecord(e.Email); r != nil {
			r.Streams = append(r.Streams, e)
			r.Version++
		}
	case event.BreakerChange:
		if e.Breaker != nil {
			f.breakerChange(e)
		}
	case event.RungSkipped, event.RungEnd:
		f.rungOver(e)
	case event.EmailDone:
		if e.Result != nil {
			f.doneEmail(e)
		}
	case event.RunClock:
		f.clock = e.Detail
	case event.AlertReceived:
		f.alertReceived(e)
	case event.AlertsDropped:
		f.alertsDropped(e)
	case event.Paused:
		f.paused = true
	case event.Resumed:
		f.paused = false
	case event.RunEnd:
		f.runEnd(e)
	}
}

// runStart takes the run's settings and sets up a breaker per rung that
// has one.
func (f *Fold) runStart(e event.Event) {
	if e.Run == nil {
		return
	}
	f.Info = *e.Run
	for _, r := range e.Run.Rungs {
		if r.HasBreaker {
			f.breaker(r.Name)
		}
	}
}

// fault counts a call to the broken model and marks its attempt: the
// injector faults exactly the attempts to the broken model that start
// inside an outage window.
func (f *Fold) fault(e event.Event) {
	f.broken++
	if r := f.keptRecord(e.Email); r != nil {
		if a := r.open(e.Rung, e.Attempt); a != nil {
			a.Fault = e.Fault
			r.Version++
		}
	}
}

// rungOver counts a rung that failed (or was skipped), and ends a probe on
// it or records the skipped rung on its email.
func (f *Fold) rungOver(e event.Event) {
	if e.Outcome != event.OK {
		if f.failed[e.Rung] == nil {
			f.failed[e.Rung] = map[event.Outcome]int{}
		}
		f.failed[e.Rung][e.Outcome]++
	}
	if e.Kind == event.RungEnd {
		f.probeEnd(e)
	} else if r := f.keptRecord(e.Email); r != nil {
		r.Attempts = append(r.Attempts, Attempt{Rung: e.Rung, Model: e.Model, Start: e.At, End: e.At,
			Ended: true, Skipped: true, Breaker: StateOpen})
		r.Version++
	}
}

// runEnd takes how the run ended.
func (f *Fold) runEnd(e event.Event) {
	f.ended, f.detail, f.paused = true, e.Detail, false
	if e.End != nil {
		f.end = *e.End
	} else {
		f.end = event.RunEndInfo{Status: legacyStatus(e.Detail)}
	}
}

// legacyStatus is the status of a run_end without End (journals recorded
// before it existed): completed unless it says interrupted.
func legacyStatus(detail string) string {
	if detail == event.StatusInterrupted {
		return event.StatusInterrupted
	}
	return event.StatusCompleted
}

// keptRecord is the email's record when the fold keeps attempts.
func (f *Fold) keptRecord(id int) *EmailRecord {
	if !f.opts.Attempts {
		return nil
	}
	return f.emails[id]
}

func (f *Fold) attemptStart(e event.Event) {
	f.series.attempt(e.Rung, e.At, e.Attempt > 0)
	f.startCount(e.Rung).start(e.At, func() (time.Duration, bool) { return f.open.earliest(e.Rung) })
	f.open.start(e)
	f.inflight.callStarted(e)
	if r := f.keptRecord(e.Email); r != nil {
		met := ""
		if b := f.breakers[e.Rung]; b != nil {
			met = b.State
		}
		r.Attempts = append(r.Attempts, Attempt{Rung: e.Rung, Model: e.Model, N: e.Attempt, Start: e.At, Breaker: met, Probe: e.Probe})
		r.Version++
	}
}

func (f *Fold) attemptEnd(e event.Event) {
	started, ok := f.open.end(e)
	if ok {
		f.inflight.callEnded(e, started)
	} else {
		started = e.At
	}
	f.attemptEnded(e, started)
	if r := f.keptRecord(e.Email); r != nil {
		if a := r.open(e.Rung, e.Attempt); a != nil {
			a.End, a.Ended, a.Outcome, a.Status = e.At, true, e.Outcome, e.Status
			r.Version++
		}
	}
}

// Target is the rung whose model the outage breaks.
func (f *Fold) Target() string {
	if f.Info.Target != "" {
		return f.Info.Target
	}
	return event.ServedPrimary
}

// Model is the model a rung calls, from the run's info.
func (f *Fold) Model(rung string) string {
	for _, r := range f.Info.Rungs {
		if r.Name == rung {
			return r.Model
		}
	}
	if t := f.failures[rung]; t != nil {
		return t.model
	}
	return ""
}

// CallsToBroken counts the calls to the broken model during the outage:
// with injected windows, the attempts the injector faulted; with an
// observed failure window, the attempts to the target started inside it.
func (f *Fold) CallsToBroken() int {
	basis, _ := f.Basis()
	if basis != BasisObserved {
		return f.broken
	}
	return f.starts[f.Target()].inWindow()
}

// startCount returns rung's count of attempt starts, made on first use.
func (f *Fold) startCount(rung string) *startCount {
	c := f.starts[rung]
	if c == nil {
		c = &startCount{}
		f.starts[rung] = c
	}
	return c
}

// Emails returns the numbers of the emails sent so far, ascending.
func (f *Fold) Emails() []int { return slices.Sorted(slices.Values(f.order)) }

// FailedCalls counts, per rung, the calls that did not answer, by outcome
// (breaker_open for a rung skipped by its breaker).
func (f *Fold) FailedCalls() map[string]map[event.Outcome]int { return maps.Clone(f.failed) }

// abortedDetail begins the run_end detail of a run a safeguard aborted
// (workload.Run.Abort): "aborted: " and the safeguard's reason.
const abortedDetail = "aborted: "

// Safeguard is the safeguard that aborted the run, as its run_end names it:
// the spend limit ("max spend 0.000400: …") or a drill file's abort
// condition. It is "" for a run that was not aborted, and for one its time
// ceiling aborted (that end names no safeguard).
func (f *Fold) Safeguard() string {
	if f.Status() != event.StatusAborted {
		return ""
	}
	reason, ok := strings.CutPrefix(f.detail, abortedDetail)
	if !ok {
		return ""
	}
	return reason
}

// Ended is how the run ended (run_end's detail), or "" while it runs.
func (f *Fold) Ended() string { return f.detail }

// Done reports whether run_end was folded.
func (f *Fold) Done() bool { return f.ended }

// Status is the run's status: run_end's (completed, interrupted, aborted,
// failed), or interrupted for a log without run_end (a run still going,
// or a journal cut short).
func (f *Fold) Status() string {
	if !f.ended || f.end.Status == "" {
		return event.StatusInterrupted
	}
	return f.end.Status
}

// Paused reports whether arrivals are held.
func (f *Fold) Paused() bool { return f.paused }

// Elapsed is the offset of the last event folded.
func (f *Fold) Elapsed() time.Duration { return f.last }

// ActiveOutage returns the injected outage window open now, if any.
func (f *Fold) ActiveOutage() (Window, bool) {
	if n := len(f.Windows); n > 0 && f.Windows[n-1].Open() {
		return f.Windows[n-1], true
	}
	return Window{}, false
}

// AddLog folds every event appended to l so far, in order, a chunk at a
// time: a finished run's whole log without copying it into one slice.
func (f *Fold) AddLog(l *event.Log) { l.Batches(f.AddAll) }
