package event

import (
	"encoding/json"
	"maps"
	"slices"
	"time"
)

// FaultSpec is a window's fault: its kind and parameters, the "what" of an
// outage (toxiproxy's toxic). Package inject turns it into a fresh fault
// instance per window; nothing about when or where it applies lives here.
type FaultSpec struct {
	// Kind is the fault kind: busy, hang, rate-limit, slow, trickle, stall,
	// reset or malformed (inject.Kinds).
	Kind string `json:"kind,omitempty"`
	// Params are the fault's parameters, key → value as written on the
	// command line (e.g. "retry_after": "20s"); a missing key keeps its
	// default. inject.Set fills it in canonical form.
	Params map[string]string `json:"params,omitempty"`
}

// Window is an outage window: the one type every part of drill speaks
// about an outage. The drill file decodes into it, internal/plan builds a
// run's timeline of them, the injector applies them, outage_start and
// outage_end carry them, replayfault replays a journal into them, and the
// fold reads them.
//
// Its shape is toxiproxy's ToxicWrapper: the fault (FaultSpec) is
// embedded, and the wrapper's own fields are the placement (when, which
// share of attempts, which models and replicas, by hand). The zero values
// of the placement's modifiers are the plain window: every attempt to the
// run's target model, all the time.
//
// An attempt belongs to the window it starts in; when windows overlap, the
// newest one added that breaks the attempt's model decides alone.
type Window struct {
	FaultSpec

	// From and To are offsets from the run's start; attempts starting in
	// [From, To) are in the window. To < 0 means open-ended: a window
	// started by hand and not yet ended. On outage_start, To is the
	// scheduled end (-1 for a window started by hand); on outage_end, the
	// actual end. Written start_ns and end_ns, as journals always have;
	// from_ns and to_ns (configurations written before) are read too.
	From time.Duration `json:"start_ns"`
	To   time.Duration `json:"end_ns"`
	// Rate is the share of the window's attempts hit, in (0, 1]; 0 means 1
	// (every attempt). Which attempts are hit is drawn from the run's seed
	// and the attempt, so a drill is reproducible.
	Rate float64 `json:"rate,omitempty"`
	// Ramp grows the rate linearly from 0 at From to Rate at To. It needs
	// a closed window.
	Ramp bool `json:"ramp,omitempty"`
	// Flap, when set, switches the window on and off: on for Flap.On from
	// From, then off for Flap.Off, and again. Attempts starting in an off
	// period pass.
	Flap *Flap `json:"flap,omitempty"`
	// Models are the rungs whose attempts the window breaks (primary,
	// backup or both); empty means the run's target.
	Models []string `json:"models,omitempty"`
	// Replicas are the fleet replicas (numbered from 1) whose attempts the
	// window breaks; empty means every replica (and a run that is not part
	// of a fleet).
	Replicas []int `json:"replicas,omitempty"`
	// ByHand is true for a window started or ended by hand (the
	// dashboard's o key, workload.Run.StartOutage and EndOutage); false for
	// the drill's schedule.
	ByHand bool `json:"by_hand,omitempty"`
	// Index says which window an outage_end closes: a scheduled window's
	// position in the run's timeline (from 0); a window started by hand
	// takes the next number after the timeline's. A start and its end
	// carry the same index.
	Index int `json:"index,omitempty"`
}

// Flap is a window's on and off periods.
type Flap struct {
	On  time.Duration `json:"on_ns"`
	Off time.Duration `json:"off_ns"`
}

// UnmarshalJSON reads a window, taking the offsets from from_ns and to_ns
// when start_ns and end_ns are absent (configurations and proxy sessions
// written before the window types became one).
func (w *Window) UnmarshalJSON(b []byte) error {
	type plain Window // without this method
	var legacy struct {
		Start *time.Duration `json:"start_ns"`
		End   *time.Duration `json:"end_ns"`
		From  *time.Duration `json:"from_ns"`
		To    *time.Duration `json:"to_ns"`
	}
	if err := json.Unmarshal(b, (*plain)(w)); err != nil {
		return err
	}
	if err := json.Unmarshal(b, &legacy); err != nil {
		return err
	}
	if legacy.Start == nil && legacy.From != nil {
		w.From = *legacy.From
	}
	if legacy.End == nil && legacy.To != nil {
		w.To = *legacy.To
	}
	return nil
}

// Open reports whether the window has no end yet (To < 0).
func (w Window) Open() bool { return w.To < 0 }

// Contains reports whether an attempt starting at offset at falls inside
// the window's span (flap and rate aside).
func (w Window) Contains(at time.Duration) bool {
	return at >= w.From && (w.To < 0 || at < w.To)
}

// On reports whether a flapping window is in an on period at offset at
// (always, without Flap).
func (w Window) On(at time.Duration) bool {
	if w.Flap == nil || w.Flap.On+w.Flap.Off <= 0 {
		return true
	}
	return (at-w.From)%(w.Flap.On+w.Flap.Off) < w.Flap.On
}

// Partial reports whether the window hits only some of its attempts: a
// rate below 1 or a ramp.
func (w Window) Partial() bool {
	return w.Ramp || (w.Rate != 0 && w.Rate < 1)
}

// HitRate is the chance that an attempt starting at offset at is hit: 0
// outside the window or in a flap's off period, Rate (growing along a
// ramp) inside.
func (w Window) HitRate(at time.Duration) float64 {
	if !w.Contains(at) || !w.On(at) {
		return 0
	}
	r := w.Rate
	if r == 0 {
		r = 1
	}
	if w.Ramp && w.To > w.From {
		r *= float64(at-w.From) / float64(w.To-w.From)
	}
	return r
}

// Breaks reports whether the window applies to rung's attempts on the
// given fleet replica (0: not part of a fleet), target being the run's
// target rung (the one an unplaced window breaks).
func (w Window) Breaks(rung, target string, replica int) bool {
	if len(w.Replicas) > 0 && !slices.Contains(w.Replicas, replica) {
		return false
	}
	if len(w.Models) == 0 {
		return rung == target
	}
	return slices.Contains(w.Models, rung)
}

// Clone copies the window's map and slices, so a scheduled window is not
// changed through the caller's.
func (w Window) Clone() Window {
	w.Params = maps.Clone(w.Params)
	w.Models = slices.Clone(w.Models)
	w.Replicas = slices.Clone(w.Replicas)
	if w.Flap != nil {
		f := *w.Flap
		w.Flap = &f
	}
	return w
}
