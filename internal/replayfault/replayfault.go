// Package replayfault derives an outage timeline from a recorded run: each
// attempt's outcome class and timing on one model (a 5xx with its status, a
// 429 with its Retry-After, a timeout or hang, a reset, a slow answer, a
// malformed one) become the windows of a new drill's outage, so the same
// incident can be played against other settings.
//
// An attempt drill injected a fault into (drill run's and drill proxy's
// journals record each one) replays as that fault, with its recorded
// parameters, whatever its outcome showed: a malformed answer, a trickle or
// an outage that slowed every answer alike replays as itself. Other
// attempts (a real incident's) are classified by their outcome.
//
// A window opens at the start of the first attempt of its class and status
// and stays open until the start of the next attempt that met something
// else: the recorded run had no evidence of recovery before then. The
// last window of a journal ends when its last attempt did.
package replayfault

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// Class is the fault a recorded attempt met, named as the fault kind that
// replays it.
type Class string

// The classes, each replayed by the fault kind of the same name.
const (
	Busy      Class = "busy"       // the server answered 5xx
	RateLimit Class = "rate-limit" // the server answered 429, with its Retry-After
	Hang      Class = "hang"       // no answer before the client's time limit
	Reset     Class = "reset"      // the connection failed or broke
	Slow      Class = "slow"       // an answer, much later than the run's typical one
	Malformed Class = "malformed"  // a 200 whose body did not parse
)

// Window is one stretch of the recorded run in which every attempt on the
// model met the same fault: the one outage-window type, event.Window, with
// the recording's evidence. Its Kind is the class (the fault kind that
// replays it); From and To are offsets from the recorded run's start; its
// Params are what the recording shows, in the fault catalogue's notation:
//
//	status       busy: the HTTP status; rate-limit: 429
//	retry_after  rate-limit: the first attempt's Retry-After (0s when the
//	             server sent none); busy: the same, only if it sent one
//	delay        slow: the median time the slow attempts took
//
// Inject replays the parameters the fault kind takes.
type Window struct {
	event.Window
	// Attempts is how many recorded attempts the window covers.
	Attempts int
}

// Recorded parameters of a window (Window.Params).
const (
	ParamStatus     = "status"
	ParamRetryAfter = "retry_after"
	ParamDelay      = "delay"
)

// Class is the fault the window's attempts met.
func (w Window) Class() Class { return Class(w.Kind) }

// param is a recorded duration parameter, 0 when absent.
func (w Window) param(key string) time.Duration {
	d, _ := time.ParseDuration(w.Params[key])
	return d
}

// String is the window as `drill validate` and the proxy print it:
// "busy 503 2.013s–4.020s (12 attempts)".
func (w Window) String() string {
	var b strings.Builder
	b.WriteString(w.Kind)
	switch w.Class() {
	case Busy:
		fmt.Fprintf(&b, " status=%s", w.Params[ParamStatus])
	case Slow:
		fmt.Fprintf(&b, " delay=%s", format.FileSecs(w.param(ParamDelay)))
	}
	if ra := w.param(ParamRetryAfter); ra > 0 {
		fmt.Fprintf(&b, " retry_after=%s", format.FileSecs(ra))
	}
	fmt.Fprintf(&b, " %s–%s (%s)", format.LogSecs(w.From), format.LogSecs(w.To), format.Plural(w.Attempts, "attempt"))
	return b.String()
}

// Options tune Derive.
type Options struct {
	// Model selects the attempts: a rung name (primary, backup, upstream)
	// or a model name. Empty means the recorded run's target rung.
	Model string
	// SlowAfter is how long a successful attempt must take to count as
	// slow. 0 means four times the median successful attempt, and at least
	// 5 s.
	SlowAfter time.Duration
}

// Attempt is one recorded HTTP attempt on the selected model.
type Attempt struct {
	Start, Duration time.Duration
	Outcome         event.Outcome
	Status          int
	RetryAfter      time.Duration
	Class           Class // "" for an attempt that met no fault
	// Recorded are the parameters of the fault drill injected into the
	// attempt, nil when it injected none (Class is then judged from the
	// outcome).
	Recorded map[string]string
}

// Attempts pairs the recorded attempts on the selected model (the fold's
// pairing, which tells drill proxy's requests apart by their id),
// classifies them and returns them by start. Attempts the run cancelled
// (its end, the proxy closing) are left out: they say nothing about the
// model.
func Attempts(events []event.Event, opts Options) ([]Attempt, error) {
	model := opts.Model
	if model == "" {
		model = scoring.TargetOf(events)
	}
	var out []Attempt
	seen := map[string]bool{}
	for _, a := range scoring.FinishedAttempts(events) {
		seen[a.Rung], seen[a.Model] = true, true
		if (a.Rung != model && a.Model != model) || a.Outcome == event.Canceled {
			continue
		}
		at := Attempt{Start: a.Start, Duration: a.Duration, Outcome: a.Outcome, Status: a.Status, RetryAfter: a.RetryAfter}
		if a.Fault != "" {
			at.Class, at.Recorded = Class(a.Fault), maps.Clone(a.FaultParams)
			if at.Recorded == nil {
				at.Recorded = map[string]string{}
			}
		}
		out = append(out, at)
	}
	if len(out) == 0 {
		delete(seen, "")
		return nil, fmt.Errorf("no finished attempts on %q in the journal (it has attempts on: %s)", model, strings.Join(slices.Sorted(maps.Keys(seen)), ", "))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	slow := opts.SlowAfter
	if slow <= 0 {
		slow = defaultSlowAfter(out)
	}
	for i := range out {
		if out[i].Recorded == nil {
			out[i].Class = classify(out[i], slow)
		}
	}
	return out, nil
}

// defaultSlowAfter is four times the median successful attempt, at least 5 s.
func defaultSlowAfter(as []Attempt) time.Duration {
	var oks []time.Duration
	for _, a := range as {
		if a.Outcome == event.OK {
			oks = append(oks, a.Duration)
		}
	}
	if len(oks) == 0 {
		return 5 * time.Second
	}
	return max(4*scoring.MedianDuration(oks), 5*time.Second)
}

// classify names the fault an attempt met, "" for none.
func classify(a Attempt, slowAfter time.Duration) Class {
	switch a.Outcome {
	case event.OK:
		if a.Duration >= slowAfter {
			return Slow
		}
		return ""
	case event.HTTP5xx:
		return Busy
	case event.HTTP429:
		return RateLimit
	case event.Timeout:
		return Hang
	case event.ConnError:
		return Reset
	case event.Invalid:
		return Malformed
	}
	return "" // a 4xx or other error: the model answered
}

// Derive turns classified attempts (by start) into windows.
func Derive(as []Attempt) []Window {
	var ws []Window
	var slowDurations []time.Duration
	closeSlow := func() {
		if n := len(ws); n > 0 && ws[n-1].Class() == Slow && len(slowDurations) > 0 && ws[n-1].Params[ParamDelay] == "" {
			ws[n-1].Params[ParamDelay] = paramDuration(scoring.MedianDuration(slowDurations))
		}
		slowDurations = slowDurations[:0]
	}
	open := false
	for _, a := range as {
		cur := len(ws) - 1
		same := open && ws[cur].Class() == a.Class && ws[cur].Params[ParamStatus] == statusOf(a) && sameRecorded(ws[cur].Params, a.Recorded)
		if open && !same {
			ws[cur].To = a.Start
			closeSlow()
			open = false
		}
		if a.Class == "" {
			continue
		}
		if !same {
			ws = append(ws, Window{Window: event.Window{
				FaultSpec: event.FaultSpec{Kind: string(a.Class), Params: evidence(a)},
				From:      a.Start,
			}})
			open = true
		}
		w := &ws[len(ws)-1]
		w.Attempts++
		w.To = max(w.To, a.Start+a.Duration)
		if a.Class == Slow {
			slowDurations = append(slowDurations, a.Duration)
		}
	}
	closeSlow()
	for i := range ws {
		if ws[i].To <= ws[i].From {
			ws[i].To = ws[i].From + time.Millisecond // a fault met by one instant attempt
		}
	}
	return ws
}

// evidence is the parameters the first attempt of a window shows: its
// status (busy, rate-limit) and the Retry-After the server sent
// (rate-limit always, 0s for none: its replay then sends none).
func evidence(a Attempt) map[string]string {
	p := maps.Clone(a.Recorded) // an injected fault's own parameters first
	if p == nil {
		p = map[string]string{}
	}
	if _, recorded := p[ParamStatus]; recorded {
		return p
	}
	if s := statusOf(a); s != "" {
		p[ParamStatus] = s
	}
	if a.Class == RateLimit || (a.Class == Busy && a.RetryAfter > 0) {
		p[ParamRetryAfter] = paramDuration(a.RetryAfter)
	}
	return p
}

// sameRecorded reports whether an attempt's recorded fault parameters (nil
// for none) are those its window opened with: a drill that changed the
// fault's parameters mid-run opens a new window.
func sameRecorded(window, recorded map[string]string) bool {
	for k, v := range recorded {
		if window[k] != v {
			return false
		}
	}
	return true
}

// statusOf is the status that tells a busy or rate-limit window from the
// next, "" for the other classes.
func statusOf(a Attempt) string {
	if a.Class == Busy || a.Class == RateLimit {
		return strconv.Itoa(a.Status)
	}
	return ""
}

// paramDuration writes a recorded duration as a fault parameter, to the
// millisecond.
func paramDuration(d time.Duration) string {
	return d.Round(time.Millisecond).String()
}

// Load reads the journal at path and derives its outage timeline.
func Load(path string, opts Options) ([]Window, error) {
	j, err := journal.ReadFile(path)
	if err != nil {
		return nil, err
	}
	as, err := Attempts(j.Events, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return Derive(as), nil
}

// Inject turns recorded windows into outage windows for the injector.
// Each class is replayed by the fault kind of its name, with the recorded
// parameters that kind takes: busy with its status, rate-limit with its
// Retry-After (none if the server sent none), slow with its delay; reset
// and malformed with their defaults. A status busy cannot send is replayed
// as 503, with a note (one line); a class the injector does not have is an
// error listing the ones it has.
func Inject(ws []Window) (out []event.Window, notes []string, err error) {
	for _, w := range ws {
		var kv []string
		if ps, perr := inject.KindParams(w.Kind); perr == nil {
			for _, p := range ps {
				if v, ok := w.Params[p.Key]; ok {
					kv = append(kv, p.Key+"="+v)
				}
			}
		}
		fault, perr := inject.ParseFault(w.Kind, kv)
		if perr != nil && w.Class() == Busy {
			notes = append(notes, fmt.Sprintf("busy window at %s recorded status %s, which busy cannot send (%v); replayed as 503", format.LogSecs(w.From), w.Params[ParamStatus], perr))
			fault, perr = inject.ParseFault(string(Busy), []string{"status=503"})
		}
		if perr != nil {
			return nil, nil, fmt.Errorf("the journal's %s window at %s cannot be replayed: %w", w.Kind, format.LogSecs(w.From), perr)
		}
		iw := w.Window.Clone()
		iw.FaultSpec = fault.FaultSpec
		out = append(out, iw)
	}
	return out, notes, nil
}
