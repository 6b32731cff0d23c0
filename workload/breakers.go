package workload

import (
	"context"
	"net/http"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/event"
)

// breakers are a run's breakers: one per rung, or one per endpoint (base
// URL and model) when a breaker's scope is endpoint.
type breakers struct {
	all        []*breaker.Breaker
	byEndpoint map[string]*breaker.Breaker
}

// close stops every breaker's timers and synthetic probes.
func (bs *breakers) close() {
	for _, b := range bs.all {
		b.Close()
	}
}

type syntheticKey struct{}

// synthetic reports whether a request is a breaker's synthetic probe.
func synthetic(req *http.Request) bool {
	s, _ := req.Context().Value(syntheticKey{}).(bool)
	return s
}

// newRung builds a rung and, if bp is set, its breaker: a new one, or with
// scope endpoint the one already guarding the same base URL and model. A
// rung without a breaker policy on an endpoint that already has an
// endpoint-scoped breaker shares that breaker too.
// Called from Start only, before the run's goroutines start.
func (r *Run) newRung(rc chain.RungConfig, bp *breaker.Settings) *chain.Rung {
	key := rc.BaseURL + " " + rc.Model
	if shared := r.breakers.byEndpoint[key]; shared != nil && (bp == nil || bp.Scope == breaker.ScopeEndpoint) {
		// An endpoint-scoped breaker guards every later rung on its
		// endpoint, with or without a breaker policy of its own.
		if rc.Breaker = shared; bp != nil {
			rc.Count = bp.Counting
		}
		return chain.NewRung(rc)
	}
	if bp == nil {
		return chain.NewRung(rc)
	}
	rc.Count = bp.Counting
	// A shared breaker keeps the name of the first rung it guards, so the
	// fold's per-breaker figures (first open, opens, probes) stay that
	// rung's.
	s := *bp
	s.Name = rc.Name
	var rung *chain.Rung
	if bp.Probe == breaker.ProbeSynthetic {
		s.Synthetic = func(ctx context.Context) breaker.Result {
			return rung.Probe(context.WithValue(ctx, syntheticKey{}, true))
		}
	}
	rungName := rc.Name
	s.OnChange = func(ch breaker.Change) {
		r.log.Append(event.Event{Kind: event.BreakerChange, Rung: rungName, Breaker: &event.BreakerState{
			Name: ch.Name, From: ch.From.String(), To: ch.To.String(), Generation: ch.Generation,
			Failures: ch.Failures, Successes: ch.Successes, Reason: ch.Reason}})
	}
	s.Store = r.cfg.BreakerStore
	rc.Breaker = breaker.New(s)
	r.breakers.all = append(r.breakers.all, rc.Breaker)
	if bp.Scope == breaker.ScopeEndpoint {
		if r.breakers.byEndpoint == nil {
			r.breakers.byEndpoint = map[string]*breaker.Breaker{}
		}
		r.breakers.byEndpoint[key] = rc.Breaker
	}
	rung = chain.NewRung(rc)
	return rung
}
