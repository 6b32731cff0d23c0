package workload

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
)

// Windows is the run's outage timeline: Outages when set, else the single
// window of Outage from OutageFrom to OutageTo (none for OutageNone).
func (c Config) Windows() []event.Window {
	if len(c.Outages) > 0 {
		return c.Outages
	}
	if c.Outage == OutageNone {
		return nil
	}
	return []event.Window{{FaultSpec: event.FaultSpec{Kind: c.Outage}, From: c.OutageFrom, To: c.OutageTo}}
}

// validateOutages checks every window of the timeline.
func (c Config) validateOutages() []error {
	var errs []error
	for k, w := range c.Outages {
		if err := inject.Validate(w); err != nil {
			errs = append(errs, fmt.Errorf("outage %d: %w", k+1, err))
		}
		for _, m := range w.Models {
			if !slices.ContainsFunc(c.rungPolicies(), func(r namedRung) bool { return r.name == m }) {
				errs = append(errs, fmt.Errorf("outage %d: model %s is not a rung of policy %s", k+1, m, c.Policy.Name))
			}
		}
	}
	return errs
}

// logFault records a fault the injector applied, with its parameters.
func (r *Run) logFault(req *http.Request, a inject.Applied) {
	r.log.Append(event.Event{Kind: event.Fault, Email: emailID(req.Context()), Rung: a.Rung,
		Attempt: retryCount(req), Fault: a.Kind, FaultParams: a.Params})
}

// streamOptions are the rungs' stream settings: nil unless the run
// streams, and then each streamed call is logged as a stream_end event.
func (r *Run) streamOptions() *chain.StreamOptions {
	if !r.cfg.Stream {
		return nil
	}
	return &chain.StreamOptions{OnEnd: func(ctx context.Context, rg *chain.Rung, s chain.StreamStats, o event.Outcome) {
		r.log.Append(event.Event{Kind: event.StreamEnd, Email: emailID(ctx), Rung: rg.Name(), Model: rg.Model(),
			Outcome: o, TTFT: s.TTFT, Tokens: s.Tokens, TokensPerS: s.TokensPerS})
	}}
}
