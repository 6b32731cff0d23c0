package workload

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/route"
)

// Route sends one class of emails to its own policy. The class is decided
// at arrival, before any model call (package route); the first route whose
// match holds wins, and the run's own Policy is the default route for the
// rest.
type Route struct {
	// Class names the route's emails in every figure (classes.NAME.*).
	Class string `json:"class"`
	// Match says which emails the route takes.
	Match route.Match `json:"match"`
	// Policy is the route's chain: the one policy type, every option of
	// the run's own policy included.
	Policy Policy `json:"policy"`
	// Hold, when set, keeps the route's emails off the backup (a drill
	// file's `backup: never`): event.HoldPerson hands an email the primary
	// cannot answer to a person at once; event.HoldWaitForPrimary queues it
	// for the primary while its breaker is open. The policy's backup,
	// rules rung and canned reply are not used.
	Hold string `json:"hold,omitempty"`
	// Wait bounds a wait-for-primary email's wait, from its arrival; 0
	// means chain.DefaultHoldWait.
	Wait time.Duration `json:"wait_ns,omitempty"`
	// Queue bounds how many of the route's emails wait for the primary at
	// once; 0 means chain.DefaultHoldQueue.
	Queue int `json:"queue,omitempty"`
	// Within is what the route's customers can wait (drill recommend's
	// bound, shown in reports); it changes nothing in the run.
	Within time.Duration `json:"within_ns,omitempty"`
}

// HoldModes lists the modes of `backup: never`.
func HoldModes() []string { return []string{event.HoldPerson, event.HoldWaitForPrimary} }

// Held is the policy a route's chain runs: with a hold, the primary alone.
func (rt Route) Held() Policy {
	p := rt.Policy
	if rt.Hold != "" {
		p.Backup, p.Rules, p.Canned, p.HedgeAfter = nil, false, false, 0
	}
	return p
}

// Classifier is the classifier of the run's routes, or nil without routes.
func (c Config) Classifier() (*route.Classifier, error) {
	if len(c.Routes) == 0 {
		return nil, nil
	}
	rules := make([]route.Rule, len(c.Routes))
	for i, rt := range c.Routes {
		rules[i] = route.Rule{Class: rt.Class, Match: rt.Match}
	}
	return route.New(rules)
}

// validateRoutes checks the routes: the classifier, each route's policy as
// a run's own is checked, its hold, and that routes sharing a model share
// its breaker's settings (a model has one breaker, whichever route calls it).
func (c Config) validateRoutes() []error {
	if len(c.Routes) == 0 {
		return nil
	}
	var errs []error
	if _, err := c.Classifier(); err != nil {
		errs = append(errs, fmt.Errorf("routes: %w", err))
	}
	breakers := map[string]string{} // rung -> its breaker's settings, as JSON
	first := map[string]string{}    // rung -> the route that set them
	note := func(class string, p Policy) {
		for _, r := range c.rungsOf(p) {
			if r.p.Breaker == nil {
				continue
			}
			b, _ := json.Marshal(r.p.Breaker) // settings of plain values: it cannot fail
			if prev, ok := breakers[r.name]; !ok {
				breakers[r.name], first[r.name] = string(b), class
			} else if prev != string(b) {
				errs = append(errs, fmt.Errorf("route %s: its %s breaker differs from route %s's: a model has one breaker, shared by every route that calls it", class, r.name, first[r.name]))
			}
		}
	}
	note(route.DefaultClass, c.Policy)
	for _, rt := range c.Routes {
		p := rt.Held()
		sub := c
		// The run's outages and endpoints are checked once, with the run.
		sub.Routes, sub.Policy, sub.Outages, sub.RungEndpoints = nil, p, nil, nil
		rungs := c.rungsOf(p)
		if len(rungs) == 0 {
			errs = append(errs, fmt.Errorf("route %s: policy %s keeps no model rung (backup: never needs the primary)", rt.Class, p.Name))
			continue
		}
		if !slices.ContainsFunc(rungs, func(r namedRung) bool { return r.name == c.Target }) {
			sub.Target = rungs[0].name // the outage's rung is not this route's: check the rest
		}
		if err := sub.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("route %s: %w", rt.Class, err))
		}
		switch rt.Hold {
		case "":
		case event.HoldPerson, event.HoldWaitForPrimary:
			if rt.Hold == event.HoldWaitForPrimary && p.Primary.Breaker == nil {
				errs = append(errs, fmt.Errorf("route %s: wait-for-primary waits while the primary's breaker is open: give policy %s a breaker", rt.Class, p.Name))
			}
		default:
			errs = append(errs, fmt.Errorf("route %s: unknown hold %q (valid: %s)", rt.Class, rt.Hold, strings.Join(HoldModes(), ", ")))
		}
		if rt.Wait < 0 || rt.Queue < 0 || rt.Within < 0 {
			errs = append(errs, fmt.Errorf("route %s: wait, queue and within must not be negative", rt.Class))
		}
		for _, d := range []time.Duration{rt.Wait, rt.Within} {
			if err := edge.Duration(d); err != nil {
				errs = append(errs, fmt.Errorf("route %s: wait or within %w", rt.Class, err))
			}
		}
		if rt.Hold == "" && (rt.Wait > 0 || rt.Queue > 0) {
			errs = append(errs, fmt.Errorf("route %s: wait and queue are for backup: never, wait-for-primary", rt.Class))
		}
		note(rt.Class, p)
	}
	return errs
}

// rungsOf lists a policy's model rungs in chain order.
func (c Config) rungsOf(p Policy) []namedRung {
	var rs []namedRung
	if p.HasPrimary() {
		rs = append(rs, namedRung{event.ServedPrimary, c.PrimaryModel, p.Primary})
	}
	if p.Backup != nil {
		rs = append(rs, namedRung{event.ServedBackup, c.BackupModel, *p.Backup})
	}
	return rs
}

// allRungs lists every model rung some route calls, the run's own policy's
// first, each name once.
func (c Config) allRungs() []namedRung {
	rs := c.rungPolicies()
	for _, rt := range c.Routes {
		for _, r := range c.rungsOf(rt.Held()) {
			if !slices.ContainsFunc(rs, func(x namedRung) bool { return x.name == r.name }) {
				rs = append(rs, r)
			}
		}
	}
	return rs
}

// routeInfos describes the routes for the run's info, the default last.
func (c Config) routeInfos() []event.RouteInfo {
	if len(c.Routes) == 0 {
		return nil
	}
	out := make([]event.RouteInfo, 0, len(c.Routes)+1)
	for _, rt := range c.Routes {
		out = append(out, event.RouteInfo{Class: rt.Class, Policy: rt.Policy.Name, Hold: rt.Hold, Within: rt.Within})
	}
	return append(out, event.RouteInfo{Class: route.DefaultClass, Policy: c.Policy.Name})
}

// routeTable is a running drill's routes: the classifier and each class's
// chain. The zero value routes every email to the run's own chain.
type routeTable struct {
	classifier *route.Classifier
	chains     map[string]*chain.Chain
}

// classify is e's class and the class its right answer would put it in
// (for scoring the classifier); both empty without routes.
func (t routeTable) classify(e emails.Email) (class, truthClass string) {
	if t.classifier == nil {
		return "", ""
	}
	class = t.classifier.Classify(e)
	truthClass, _ = t.classifier.TruthClass(e)
	return class, truthClass
}

// chainFor is the chain of class, or def for the default route.
func (t routeTable) chainFor(class string, def *chain.Chain) *chain.Chain {
	if c := t.chains[class]; c != nil {
		return c
	}
	return def
}

// buildChain builds the chain of policy p; shared holds the breaker of
// every rung built so far, by rung name, so routes calling the same model
// share its breaker (validateRoutes checks their settings agree).
// Called from Start only, before the run's goroutines start.
func (r *Run) buildChain(p Policy, addrs map[string]rungAddress, spend *meter, shared map[string]*breaker.Breaker) *chain.Chain {
	c := &chain.Chain{Canned: p.Canned, Rules: p.Rules, Hooks: r.hooks(),
		EmailDeadline: p.EmailDeadline, HedgeAfter: p.HedgeAfter}
	for _, np := range r.cfg.rungsOf(p) {
		rt := r.injector.For(np.name)
		rc := chain.RungConfig{Name: np.name, Model: np.model, TimeLimit: np.p.TimeLimit, Retries: np.p.Retries,
			Scope: p.Scope, BaseURL: addrs[np.name].baseURL, APIKey: addrs[np.name].key,
			Transport:     &observer{run: r.ctx, log: r.log, rung: np.name, model: np.model, next: rt, meter: spend},
			Stream:        r.streamOptions(),
			MaxRetryDelay: np.p.MaxRetryDelay, Floor: np.p.StreamFloor}
		var rung *chain.Rung
		if b := shared[np.name]; b != nil && np.p.Breaker != nil {
			rc.Breaker, rc.Count = b, np.p.Breaker.Counting
			rung = chain.NewRung(rc)
		} else {
			rung = r.newRung(rc, np.p.Breaker)
			if b := rung.Breaker(); b != nil && shared[np.name] == nil {
				shared[np.name] = b
			}
		}
		c.Rungs = append(c.Rungs, rung)
	}
	return c
}

// buildRoutes builds every route's chain after the run's own, whose
// buildChain left its breakers in shared.
func (r *Run) buildRoutes(addrs map[string]rungAddress, spend *meter, shared map[string]*breaker.Breaker) error {
	if len(r.cfg.Routes) == 0 {
		return nil
	}
	cl, err := r.cfg.Classifier()
	if err != nil {
		return err
	}
	r.routes = routeTable{classifier: cl, chains: map[string]*chain.Chain{}}
	for _, rt := range r.cfg.Routes {
		c := r.buildChain(rt.Held(), addrs, spend, shared)
		if rt.Hold != "" {
			h := &chain.Hold{Mode: rt.Hold, Wait: rt.Wait}
			if rt.Queue > 0 {
				h.Queue = chain.NewQueue(rt.Queue)
			}
			c.Hold = h
		}
		r.routes.chains[rt.Class] = c
	}
	return nil
}
