package scoring

import (
	"fmt"
	"slices"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
)

// HandChanges folds what the hand changed in a live run's timeline, as the
// run's log records it, so that a baseline can play the same drill: the
// outage windows started by hand (the dashboard's o key), the scheduled
// windows ended early by hand, and arrivals paused by hand, which a
// baseline cannot replay (NotComparable says so). The zero value is ready
// to use; not safe for concurrent use.
type HandChanges struct {
	started []event.Window        // windows started by hand, in order; To -1 while open
	ended   map[int]time.Duration // scheduled window index → where the hand ended it
	pausedS float64               // the first pause's offset, seconds
	paused  bool
}

// Add folds e and reports whether it changed what the hand did (a window
// started or ended by hand, the first pause): a baseline then plays again.
func (h *HandChanges) Add(e event.Event) bool {
	switch e.Kind {
	case event.OutageStart:
		if e.Window == nil || !e.Window.ByHand {
			return false
		}
		w := e.Window.Clone()
		w.ByHand = false // in a baseline it is part of the timeline
		w.To = -1
		h.started = append(h.started, w)
		return true
	case event.OutageEnd:
		if e.Window == nil || !e.Window.ByHand {
			return false
		}
		if i := slices.IndexFunc(h.started, func(w event.Window) bool { return w.Index == e.Window.Index }); i >= 0 {
			h.started[i].To = e.Window.To
			return true
		}
		if h.ended == nil {
			h.ended = map[int]time.Duration{}
		}
		h.ended[e.Window.Index] = e.Window.To
		return true
	case event.Paused:
		if h.paused {
			return false
		}
		h.paused, h.pausedS = true, e.At.Seconds()
		return true
	}
	return false
}

// Changed reports whether the hand changed the timeline or the arrivals.
func (h *HandChanges) Changed() bool { return len(h.started) > 0 || len(h.ended) > 0 || h.paused }

// Timeline is the outage timeline the live run played, from the one it was
// scheduled with (workload.Config.Windows): each scheduled window ended
// where the hand ended it, then the windows started by hand, in order
// (each keeps its index, the next after the timeline's), open-ended while
// the hand has not ended it.
func (h *HandChanges) Timeline(scheduled []event.Window) []event.Window {
	out := make([]event.Window, 0, len(scheduled)+len(h.started))
	for i, w := range scheduled {
		w = w.Clone()
		if end, ok := h.ended[i]; ok && (w.To < 0 || end < w.To) {
			w.To = end
		}
		out = append(out, w)
	}
	for _, w := range h.started {
		out = append(out, w.Clone())
	}
	return out
}

// NotComparable is why a baseline cannot play what the live run played,
// or "" when it can: arrivals paused by hand shift the live run's
// schedule, which a baseline has no way to replay.
func (h *HandChanges) NotComparable() string {
	if !h.paused {
		return ""
	}
	return fmt.Sprintf("arrivals were paused by hand at %s, and a baseline cannot replay a pause", format.Secs(h.pausedS))
}
