package scoring

import (
	"slices"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
)

// Outage bases: what an outage-relative figure is relative to.
const (
	// BasisInjected: a window drill injected (scheduled or by hand), as
	// the injector applied it.
	BasisInjected = "injected"
	// BasisObserved: a model's observed failure window, from the start of
	// its first failed attempt to the end of its last, for outages drill
	// did not inject (a real 5xx, a real hang).
	BasisObserved = "observed"
	// BasisNone: no outage, injected or observed.
	BasisNone = "none"
)

// Window is an outage window as the fold knows it: the window the outage
// events carried (event.Window: its fault and placement, From and To as
// offsets from the run's start, To < 0 while still open), or a model's
// observed failure window, with what the fold adds to it.
type Window struct {
	event.Window
	// Target is the rung whose model the window broke: the events' Rung
	// ("primary+backup" for a window on both).
	Target string
	// Basis is BasisInjected or BasisObserved.
	Basis string
	// ScheduledEnd is, for an injected window, the end its outage_start
	// announced: the scheduled end, or -1 for a window started by hand.
	ScheduledEnd time.Duration
}

// Contains reports whether a call starting at offset at falls in the
// window, the one rule every figure reads: an injected window is
// end-exclusive (event.Window.Contains); an observed one holds its end, the
// last failure's, so an instant failure (a 503 on the virtual clock starts
// and ends at once) is inside its own window.
func (w Window) Contains(at time.Duration) bool {
	if w.Basis == BasisObserved {
		return at >= w.From && at <= w.To
	}
	return w.Window.Contains(at)
}

// outageStart folds an outage_start: the window as the injector applied it,
// taken from the event's Window (older journals without it fall back to
// the event's own offset, fault and detail). Its To stays open (-1) until
// its outage_end.
func (f *Fold) outageStart(e event.Event) {
	w := Window{Window: event.Window{From: e.At, ByHand: e.Detail == event.ByHand}, Target: e.Rung, Basis: BasisInjected, ScheduledEnd: -1}
	if e.Window != nil {
		w.Window = e.Window.Clone()
		w.ScheduledEnd = e.Window.To
	}
	if w.Kind == "" {
		w.Kind = e.Fault // journals from before the event carried the fault in its window
	}
	w.To = -1
	f.Windows = append(f.Windows, w)
}

// outageEnd closes the open injected window with the end's index (the
// latest such, should a hostile journal repeat one); an end that matches
// no open window is ignored.
func (f *Fold) outageEnd(e event.Event) {
	index := 0
	if e.Window != nil {
		index = e.Window.Index
	}
	k := -1
	for i := len(f.Windows) - 1; i >= 0; i-- {
		if w := f.Windows[i]; w.Open() && w.Basis == BasisInjected && w.Index == index {
			k = i
			break
		}
	}
	if k < 0 {
		return
	}
	w := &f.Windows[k]
	w.To = e.At
	if e.Window != nil {
		w.To = e.Window.To
		w.ByHand = w.ByHand || e.Window.ByHand
	}
	if w.To < w.From {
		w.To = w.From
	}
}

// failureTrack is one rung's observed failures: the start of its first
// failed attempt and the end of its last.
type failureTrack struct {
	model       string
	first, last time.Duration
	failed      int
	attempts    int
}

// failedOutcome reports whether an attempt's outcome says the model failed
// on its own: a timeout, a 5xx, a 429 or a connection error.
func failedOutcome(o event.Outcome) bool {
	return o.Transient() || o == event.HTTP429
}

func (f *Fold) attemptEnded(e event.Event, started time.Duration) {
	t := f.failures[e.Rung]
	if t == nil {
		t = &failureTrack{model: e.Model}
		f.failures[e.Rung] = t
	}
	t.attempts++
	if !failedOutcome(e.Outcome) {
		return
	}
	if t.failed == 0 || started < t.first {
		t.first = started
	}
	if t.failed == 0 || e.At > t.last {
		t.last = e.At
	}
	t.failed++
	f.startCount(e.Rung).failed(t.first, t.last)
}

// Observed returns rung's observed failure window, if any attempt to it
// failed: from its first failed call's start to its last one's end.
func (f *Fold) Observed(rung string) (Window, bool) {
	t := f.failures[rung]
	if t == nil || t.failed == 0 {
		return Window{}, false
	}
	return Window{Window: event.Window{From: t.first, To: t.last}, Target: rung, Basis: BasisObserved}, true
}

// Basis returns the windows outage-relative figures are relative to: the
// injected windows if drill injected any, else the target's observed
// failure window, else none. While a run that plans to inject an outage
// has not opened it yet, the basis is none: failures before the outage
// (a slow answer, a stray 5xx) are not the outage, and figures about the
// "broken" model wait for it. A target on drill's built-in model has no
// observed outage: that model fails only when drill injects a fault, so
// with none injected its failures are the policy's own (a time limit
// below its latency on a healthy day), not a broken model.
func (f *Fold) Basis() (string, []Window) {
	if len(f.Windows) > 0 {
		return BasisInjected, f.Windows
	}
	if f.outagePending() || f.builtIn(f.Target()) {
		return BasisNone, nil
	}
	if w, ok := f.Observed(f.Target()); ok {
		return BasisObserved, []Window{w}
	}
	return BasisNone, nil
}

// builtIn reports whether rung calls drill's built-in fake model, as the
// run's info says (event.Rung.BuiltIn; false in journals from before it).
func (f *Fold) builtIn(rung string) bool {
	for _, r := range f.Info.Rungs {
		if r.Name == rung {
			return r.BuiltIn
		}
	}
	return false
}

// NoOutage reports whether the run, as folded so far, had no outage: none
// injected (none configured, or one configured that never started before
// the run ended) and none observed. Its failed calls are then failures on
// a healthy day (FailedAttempts), never calls to a broken model.
func (f *Fold) NoOutage() bool {
	basis, _ := f.Basis()
	return basis == BasisNone && !f.outagePending()
}

// FailedAttempts counts the attempts, to any rung, that failed (timeout,
// 5xx, 429, connection error), over the whole run.
func (f *Fold) FailedAttempts() int {
	n := 0
	for _, t := range f.failures {
		n += t.failed
	}
	return n
}

// outagePending reports whether the run plans to inject an outage that has
// not opened yet: its run_start names an outage kind, no window has opened
// and the run has not ended.
func (f *Fold) outagePending() bool {
	planned := f.Info.Outage != "" && f.Info.Outage != outageNone
	return planned && len(f.Windows) == 0 && !f.ended
}

// outageNone is the outage kind a run without a planned outage logs in its
// run_start (workload.OutageNone; the fold does not import the engine).
const outageNone = "none"

// OutageKind is the kind of outage the run had: the kind it planned, or,
// when windows were started by hand, the faults of the windows as the
// injector applied them, in order and each once ("hang", "busy+hang"),
// so an outage started by hand is named by its own fault.
func (f *Fold) OutageKind() string {
	byHand := false
	for _, w := range f.Windows {
		byHand = byHand || w.startedByHand()
	}
	if !byHand {
		return f.Info.Outage
	}
	var kinds []string
	for _, w := range f.Windows {
		if w.Kind != "" && !slices.Contains(kinds, w.Kind) {
			kinds = append(kinds, w.Kind)
		}
	}
	if len(kinds) == 0 {
		return f.Info.Outage
	}
	return strings.Join(kinds, "+")
}

// startedByHand reports whether an injected window was started by hand
// rather than by the drill's schedule (which announces its end).
func (w Window) startedByHand() bool {
	return w.Basis == BasisInjected && w.ByHand && w.ScheduledEnd < 0
}

// FirstOpen is the first open of rung's breaker at or after the start of
// the outage that concerns it, relative to that start: the first injected
// window when drill injected any, else the rung's own observed failure
// window (none on the built-in model: with nothing injected it had no
// outage); nil when it never opened then. It is the one first-open figure:
// the summary, its observed rows and the dashboard all read it.
func (f *Fold) FirstOpen(rung string) *time.Duration {
	ws := f.Windows
	if len(ws) == 0 {
		if f.outagePending() || f.builtIn(rung) {
			return nil // no outage: the built-in model's failures are not one
		}
		w, ok := f.Observed(rung)
		if !ok {
			return nil
		}
		ws = []Window{w}
	}
	return firstOpenAfter(f.breakerChanges(rung), ws)
}

func inAny(ws []Window, at time.Duration) bool {
	for _, w := range ws {
		if w.Contains(at) {
			return true
		}
	}
	return false
}

// InOutage reports whether offset at falls in an outage window of the basis.
func (f *Fold) InOutage(at time.Duration) bool {
	_, ws := f.Basis()
	return inAny(ws, at)
}
