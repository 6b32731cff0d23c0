package workload

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/control"
)

// errOutageActive is a start while an outage is active: a drill plays one
// at a time.
var errOutageActive = errors.New("an outage is already active")

// Apply applies a control command to a run on the real clock, through the
// path the dashboard's keys take: a start is an outage started by hand
// (StartOutage), with its parameters, its duration (For: it then ends by
// itself) and its models (rungs: primary, backup), and the command
// recorded on its events; a stop ends every active outage (EndOutage). A
// command whose ID was applied already (among the last
// control.RememberedIDs) is not applied again: Apply returns nil. Errors
// wrap control's: ErrInvalid, ErrConflict (an outage is active: a drill
// plays one at a time), ErrNoOutage, ErrLimit and ErrClosed.
func (r *Run) Apply(cmd control.Command) error {
	if err := cmd.Check(); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.outages.closed || r.ctx.Err() != nil:
		return control.ErrClosed
	case r.outages.ids.Seen(cmd.ID):
		return nil
	}
	var err error
	if cmd.Op == control.OpStart {
		err = r.applyStart(cmd)
	} else if !r.stopLocked(cmd.Recorded()) {
		err = control.ErrNoOutage
	}
	if err == nil || errors.Is(err, control.ErrNoOutage) {
		r.outages.ids.Add(cmd.ID)
	}
	return err
}

// applyStart starts a command's outage. Call it with r.mu held.
func (r *Run) applyStart(cmd control.Command) error {
	if r.outages.commanded >= control.MaxCommanded {
		return fmt.Errorf("%w: this run has started %d already", control.ErrLimit, r.outages.commanded)
	}
	w, err := inject.ParseFault(cmd.Fault.Kind, cmd.Params())
	if err != nil {
		return fmt.Errorf("%w: %w", control.ErrInvalid, err)
	}
	if len(cmd.Models) > 0 {
		w.Models = slices.Clone(cmd.Models)
	}
	switch err := r.startLocked(w, cmd.For, cmd.Recorded()); {
	case errors.Is(err, errOutageActive):
		return fmt.Errorf("%w: %w", control.ErrConflict, err)
	case err != nil:
		return fmt.Errorf("%w: %w", control.ErrInvalid, err)
	}
	r.outages.commanded++
	return nil
}

// StartOutage starts an outage of kind by hand, now, on the target rung's
// model, recorded like a scheduled one. It lasts until EndOutage.
func (r *Run) StartOutage(kind string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.startLocked(event.Window{FaultSpec: event.FaultSpec{Kind: kind}}, 0, nil)
}

// startLocked starts w by hand now, for d (0: until EndOutage), and logs
// its start with cmd. Call it with r.mu held.
func (r *Run) startLocked(w event.Window, d time.Duration, cmd *event.Command) error {
	o := &r.outages
	if o.active() {
		return errOutageActive
	}
	now := time.Since(r.log.Start())
	w.From, w.To, w.ByHand, w.Index = now, -1, true, len(r.cfg.Windows())+o.hands
	if d > 0 {
		w.To = now + d
	}
	if err := r.injector.Add(w); err != nil {
		return err
	}
	o.byHand, o.hand, o.handCmd = true, w, cmd
	o.hands++
	r.log.Append(event.Event{Kind: event.OutageStart, Fault: w.Kind, Rung: r.cfg.windowRung(w), Detail: event.ByHand,
		Window: logged(w, w.Index, w.To, true), Command: cmd})
	if d > 0 && !o.closed {
		r.timed.Go(func() { r.endWhenDue(w.Index, r.log.Start().Add(w.To)) })
	}
	return nil
}

// endWhenDue logs the end of the outage started by hand with index at
// its scheduled end, unless it has ended before or the run ends first.
func (r *Run) endWhenDue(index int, at time.Time) {
	if !r.waitUntil(at) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	o := &r.outages
	if !o.byHand || o.hand.Index != index {
		return
	}
	o.byHand = false
	r.log.Append(event.Event{Kind: event.OutageEnd, Fault: o.hand.Kind, Rung: r.cfg.windowRung(o.hand),
		Window: logged(o.hand, index, o.hand.To, true), Command: o.handCmd})
}

// EndOutage ends every active outage window, scheduled or by hand, now:
// each gets its outage_end, marked by hand.
func (r *Run) EndOutage() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopLocked(nil)
}

// stopLocked ends every active outage window now, each with its
// outage_end by hand carrying cmd, and reports whether one was active.
// Call it with r.mu held.
func (r *Run) stopLocked(cmd *event.Command) bool {
	o := &r.outages
	if !o.active() {
		return false
	}
	now := time.Since(r.log.Start())
	r.injector.EndAt(now)
	if o.byHand {
		o.byHand = false
		r.log.Append(event.Event{Kind: event.OutageEnd, Fault: o.hand.Kind, Rung: r.cfg.windowRung(o.hand), Detail: event.ByHand,
			Window: logged(o.hand, o.hand.Index, now, true), Command: cmd})
	}
	ws := r.cfg.Windows()
	for _, i := range slices.Sorted(maps.Keys(o.open)) {
		delete(o.open, i)
		r.log.Append(event.Event{Kind: event.OutageEnd, Fault: ws[i].Kind, Rung: r.cfg.windowRung(ws[i]), Detail: event.ByHand,
			Window: logged(ws[i], i, now, true), Command: cmd})
	}
	return true
}

// Outages returns the outage windows active now: the scheduled ones open,
// in timeline order, then the one started by hand or by command.
func (r *Run) Outages() []control.Outage {
	r.mu.Lock()
	defer r.mu.Unlock()
	o := &r.outages
	var out []control.Outage
	ws := r.cfg.Windows()
	for _, i := range slices.Sorted(maps.Keys(o.open)) {
		out = append(out, control.Outage{Window: *logged(ws[i], i, ws[i].To, false)})
	}
	if o.byHand {
		out = append(out, control.Outage{Window: *logged(o.hand, o.hand.Index, o.hand.To, true), Command: recordedCopy(o.handCmd)})
	}
	return out
}

func recordedCopy(c *event.Command) *event.Command {
	if c == nil {
		return nil
	}
	d := *c
	d.Models = slices.Clone(c.Models)
	return &d
}
