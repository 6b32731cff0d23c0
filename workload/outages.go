package workload

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/control"
)

// outageLog is which outage windows the log has open: the scheduled ones
// by their index in the timeline, and the one started by hand. Guarded by
// Run.mu.
type outageLog struct {
	open   map[int]bool // scheduled windows started and not ended
	byHand bool         // a window started by hand is open
	hand   event.Window // that window, its Index after the timeline's
	hands  int          // windows started by hand so far
	// handCmd is the command that started the window by hand, nil for
	// the dashboard's key (apply.go).
	handCmd   *event.Command
	commanded int         // windows started by command so far
	ids       control.IDs // the commands applied
	// closed is set when the run has ended: no command starts a timer
	// any more.
	closed bool
}

func (o *outageLog) active() bool { return o.byHand || len(o.open) > 0 }

// windowRung is the rung an outage window's events name: the one model it
// breaks, or several joined by "+", or the run's target.
func (c Config) windowRung(w event.Window) string {
	if len(w.Models) == 0 {
		return c.Target
	}
	return strings.Join(w.Models, "+")
}

// scheduleOutage logs every scheduled window's outage_start and
// outage_end at their offsets, each with the window's index in the
// timeline (Config.Windows). The injector applies the windows by itself;
// these events say so in the log. A flapping window is one window: its
// on/off cycle is a modifier inside it.
func (r *Run) scheduleOutage() {
	type mark struct {
		at    time.Duration
		index int
		start bool
	}
	ws := r.cfg.Windows()
	var marks []mark
	for i, w := range ws {
		marks = append(marks, mark{w.From, i, true})
		if w.To >= 0 {
			marks = append(marks, mark{w.To, i, false})
		}
	}
	// In time order; at the same instant, ends before starts.
	slices.SortStableFunc(marks, func(a, b mark) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		switch {
		case a.start == b.start:
			return 0
		case a.start:
			return 1
		}
		return -1
	})
	start := r.log.Start()
	for _, m := range marks {
		if !r.waitUntil(start.Add(m.at)) {
			return
		}
		w := ws[m.index]
		r.mu.Lock()
		o := &r.outages
		switch {
		case m.start && !o.byHand:
			if o.open == nil {
				o.open = map[int]bool{}
			}
			o.open[m.index] = true
			r.log.Append(event.Event{Kind: event.OutageStart, Fault: w.Kind, Rung: r.cfg.windowRung(w),
				Window: logged(w, m.index, w.To, false)})
		case !m.start && o.open[m.index]:
			delete(o.open, m.index)
			r.log.Append(event.Event{Kind: event.OutageEnd, Fault: w.Kind, Rung: r.cfg.windowRung(w),
				Window: logged(w, m.index, w.To, false)})
		}
		r.mu.Unlock()
	}
}

// OutageKinds are the kinds StartOutage accepts (inject.Kinds), in the
// order a dashboard offers them.
func (r *Run) OutageKinds() []string { return inject.Kinds() }

// logged is the window an outage event carries: w as the injector applies
// it, with its index in the run, its end (scheduled, actual, or -1 while
// open) and whether the hand started or ended it.
func logged(w event.Window, index int, end time.Duration, byHand bool) *event.Window {
	c := w.Clone()
	c.Index, c.To, c.ByHand = index, end, byHand
	return &c
}

// OutageActive reports whether an outage window is active now.
func (r *Run) OutageActive() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.outages.active()
}
