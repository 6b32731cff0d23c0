package proxy

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

// outages is which outages the proxy's log has open, and what commands it
// has applied. Guarded by Proxy.mu.
type outages struct {
	open      map[int]bool            // scheduled windows started and not ended, by index
	hand      map[int]*handOutage     // outages started by hand or by command and open, by index
	models    map[int]map[string]bool // the models an open outage is limited to, by index
	hands     int                     // outages started by hand or by command so far
	commanded int                     // outages started by command so far
	ids       control.IDs             // the commands applied
}

// handOutage is an outage started by hand or by command.
type handOutage struct {
	w   event.Window   // as logged: its index, scheduled end (-1: until a stop) and models
	cmd *event.Command // the command that started it; nil by hand
}

func (o *outages) opened(i int) {
	if o.open == nil {
		o.open = map[int]bool{}
	}
	o.open[i] = true
}

var _ interface {
	Apply(control.Command) error
	Outages() []control.Outage
} = (*Proxy)(nil)

// Apply applies a control command: a start plays exactly as an outage
// started by hand from the dashboard does (the same events, marked by
// hand, with the command recorded on them), ended by a stop or, when the
// command says For, by itself then; Models limits it to requests naming
// those models. A stop ends every outage active now, scheduled, by hand
// or by command. A command whose ID was applied already (among the last
// control.RememberedIDs) is not applied again: Apply returns nil. Errors
// wrap control's: ErrInvalid, ErrNoOutage, ErrLimit (past
// control.MaxCommanded starts) and ErrClosed.
func (p *Proxy) Apply(cmd control.Command) error {
	if err := cmd.Check(); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.closing:
		return control.ErrClosed
	case p.outages.ids.Seen(cmd.ID):
		return nil
	}
	var err error
	if cmd.Op == control.OpStart {
		err = p.applyStart(cmd)
	} else if !p.stopLocked(cmd.Recorded()) {
		err = control.ErrNoOutage
	}
	if err == nil || errors.Is(err, control.ErrNoOutage) {
		p.outages.ids.Add(cmd.ID) // a stop that found nothing is applied too
	}
	return err
}

// applyStart starts a command's outage. Call it with p.mu held.
func (p *Proxy) applyStart(cmd control.Command) error {
	if p.outages.commanded >= control.MaxCommanded {
		return fmt.Errorf("%w: this proxy has started %d already", control.ErrLimit, p.outages.commanded)
	}
	w, err := inject.ParseFault(cmd.Fault.Kind, cmd.Params())
	if err != nil {
		return fmt.Errorf("%w: %w", control.ErrInvalid, err)
	}
	if len(w.Models) > 0 || len(w.Replicas) > 0 {
		return fmt.Errorf("%w: a proxy's outage takes its models from the command's models, not from its parameters", control.ErrInvalid)
	}
	if err := p.startLocked(w, cmd.For, cmd.Models, cmd.Recorded()); err != nil {
		return fmt.Errorf("%w: %w", control.ErrInvalid, err)
	}
	p.outages.commanded++
	return nil
}

// StartOutage starts an outage of kind now, until EndOutage (an outage
// started by hand, as `o` in the dashboard does). It is logged with detail
// event.ByHand.
func (p *Proxy) StartOutage(kind string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closing {
		return control.ErrClosed
	}
	return p.startLocked(event.Window{FaultSpec: event.FaultSpec{Kind: kind}}, 0, nil, nil)
}

// EndOutage ends every outage active now, scheduled, by hand or by
// command, and reports whether one was.
func (p *Proxy) EndOutage() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stopLocked(nil)
}

// startLocked starts w now, for d (0: until a stop), limited to models
// (none: every request the proxy's outage applies to), and logs its start
// by hand with cmd. Call it with p.mu held.
func (p *Proxy) startLocked(w event.Window, d time.Duration, models []string, cmd *event.Command) error {
	at := time.Since(p.log.Start())
	w.From, w.To, w.ByHand, w.Index = at, -1, true, len(p.windows)+p.outages.hands
	if d > 0 {
		w.To = at + d
	}
	if err := p.injector.Add(w); err != nil {
		return err
	}
	p.outages.hands++
	logged := w.Clone()
	if len(models) > 0 {
		logged.Models = slices.Clone(models)
		if p.outages.models == nil {
			p.outages.models = map[int]map[string]bool{}
		}
		set := map[string]bool{}
		for _, m := range models {
			set[m] = true
		}
		p.outages.models[w.Index] = set
	}
	if p.outages.hand == nil {
		p.outages.hand = map[int]*handOutage{}
	}
	p.outages.hand[w.Index] = &handOutage{w: logged, cmd: cmd}
	p.log.Append(event.Event{Kind: event.OutageStart, Rung: Rung, Fault: w.Kind, Detail: event.ByHand, Window: &logged, Command: cmd})
	if d > 0 {
		p.sched.Go(func() { p.endWhenDue(w.Index, w.To) })
	}
	return nil
}

// endWhenDue logs the end of the outage with index at offset to, its
// scheduled end, unless it has ended before or the proxy closes first.
func (p *Proxy) endWhenDue(index int, to time.Duration) {
	if !p.sleepUntil(to) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	o, ok := p.outages.hand[index]
	if !ok {
		return
	}
	p.endHandLocked(index, o, to, "", o.cmd)
}

// endHandLocked logs the end of an outage started by hand or by command,
// at offset at, and forgets it.
func (p *Proxy) endHandLocked(index int, o *handOutage, at time.Duration, detail string, cmd *event.Command) {
	delete(p.outages.hand, index)
	delete(p.outages.models, index)
	end := o.w.Clone()
	end.To = at
	p.log.Append(event.Event{Kind: event.OutageEnd, Rung: Rung, Fault: end.Kind, Detail: detail, Window: &end, Command: cmd})
}

// stopLocked ends every outage active now, each with its outage_end by
// hand carrying cmd, and reports whether one was. Call it with p.mu held.
func (p *Proxy) stopLocked(cmd *event.Command) bool {
	at := time.Since(p.log.Start())
	ended := p.injector.EndAt(at)
	for _, i := range slices.Sorted(maps.Keys(p.outages.open)) {
		delete(p.outages.open, i)
		p.log.Append(event.Event{Kind: event.OutageEnd, Rung: Rung, Fault: p.windows[i].Kind, Detail: event.ByHand, Command: cmd})
		ended = true
	}
	for _, i := range slices.Sorted(maps.Keys(p.outages.hand)) {
		p.endHandLocked(i, p.outages.hand[i], at, event.ByHand, cmd)
		ended = true
	}
	return ended
}

// Outages returns the outages active now, in the order they started: the
// scheduled ones open, then those started by hand or by command.
func (p *Proxy) Outages() []control.Outage {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []control.Outage
	for _, i := range slices.Sorted(maps.Keys(p.outages.open)) {
		w := p.windows[i].Clone()
		w.Index = i
		out = append(out, control.Outage{Window: w})
	}
	for _, i := range slices.Sorted(maps.Keys(p.outages.hand)) {
		o := p.outages.hand[i]
		var cmd *event.Command
		if o.cmd != nil {
			c := *o.cmd
			c.Models = slices.Clone(c.Models)
			cmd = &c
		}
		out = append(out, control.Outage{Window: o.w.Clone(), Command: cmd})
	}
	return out
}

// Windows is the proxy's scheduled outage timeline.
func (p *Proxy) Windows() []event.Window {
	out := make([]event.Window, len(p.windows))
	for i, w := range p.windows {
		out[i] = w.Clone()
	}
	return out
}

// outageBreaks reports whether the outage deciding a request for model
// now (the newest active) applies to it: false only for an outage limited
// to other models.
func (p *Proxy) outageBreaks(model string) bool {
	w, ok := p.injector.Active(time.Since(p.log.Start()))
	if !ok {
		return true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	ms, limited := p.outages.models[w.Index]
	return !limited || ms[model]
}
