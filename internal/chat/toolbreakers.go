package chat

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/tools"
)

// Tool breaker scopes: which tool calls share a breaker.
const (
	// ToolScopeDependency is one breaker per service (dependency): the
	// two carrier tools share one. The default.
	ToolScopeDependency = "dependency"
	// ToolScopeTool is one breaker per tool: one carrier outage trips two.
	ToolScopeTool = "tool"
)

// ToolBreakers are breakers on the tools: each trips on the rules of
// Settings (count, consecutive, rate, p99, in-flight, as for models), and
// while open answers the model with the dependency's unavailable message
// instead of calling it. They probe with synthetic calls (the real tool
// call for a known order), never a conversation's call.
type ToolBreakers struct {
	// Scope is ToolScopeDependency (and "") or ToolScopeTool.
	Scope string `json:"scope,omitempty"`
	// Settings are every tool breaker's settings; Probe is always
	// synthetic.
	Settings breaker.Settings `json:"settings"`
}

// DefaultToolBreakers is the tool-breaker write-up's breaker: half the
// calls failing, or a p99 over 10 s, over a 60 s window of at least 5
// calls opens it for 30 s; synthetic probes every 10 s while open.
func DefaultToolBreakers() *ToolBreakers {
	return &ToolBreakers{Scope: ToolScopeDependency, Settings: breaker.Settings{
		Trip: breaker.Trip{Rules: []string{breaker.RuleRate, breaker.RuleP99}, FailureRate: 0.5, P99: 10 * time.Second,
			MinSamples: 5, Window: 60 * time.Second},
		Cooldown: 30 * time.Second, Probe: breaker.ProbeSynthetic, ProbeInterval: 10 * time.Second}}
}

// Validate says what is wrong with b.
func (b ToolBreakers) Validate() error {
	if b.Scope != "" && b.Scope != ToolScopeDependency && b.Scope != ToolScopeTool {
		return fmt.Errorf("tool breakers: unknown scope %q (valid: %s, %s)", b.Scope, ToolScopeDependency, ToolScopeTool)
	}
	s := b.Settings
	s.Probe = breaker.ProbeSynthetic
	if err := s.Validate(); err != nil {
		return fmt.Errorf("tool breakers: %w", err)
	}
	return nil
}

// key is the breaker a tool's calls go through under the scope.
func (b ToolBreakers) key(tool string) string {
	if b.Scope == ToolScopeTool {
		return tool
	}
	return tools.Dependency(tool)
}

// toolGuard is the run's tool breakers, by key, made before the run starts.
type toolGuard struct {
	cfg      ToolBreakers
	breakers map[string]*breaker.Breaker
}

// newToolGuard builds the breakers of every tool (one per dependency or
// per tool), each with its synthetic probe.
func (r *Run) newToolGuard() *toolGuard {
	tb := r.cfg.ToolBreakers
	if tb == nil {
		return nil
	}
	g := &toolGuard{cfg: *tb, breakers: map[string]*breaker.Breaker{}}
	probeOrder := knownOrder(r)
	for _, tool := range tools.Names {
		key := tb.key(tool)
		if g.breakers[key] != nil {
			continue
		}
		s := tb.Settings
		s.Trip.Rules = slices.Clone(s.Trip.Rules)
		s.Name, s.Probe = key, breaker.ProbeSynthetic
		s.OnChange = r.logBreakerChange(key)
		probeTool := tool
		s.Synthetic = func(ctx context.Context) breaker.Result {
			// The real path, not a health endpoint: a lookup of an order
			// the shop has, logged as no conversation's call.
			start := time.Now()
			res, err := r.cfg.Tools.Call(ctx, probeTool, `{"order_id":"`+probeOrder+`"}`)
			took := time.Since(start)
			outcome := toolOutcome(ctx, res, err)
			detail := errText(res.Err)
			slow := outcome == event.OK && slowerThan(s.Trip, took)
			if slow {
				// The p99 rule calls a call this slow a failure: so is a
				// probe, or the breaker closes into a dependency still slow.
				detail = fmt.Sprintf("probe took %s, over the p99 threshold %s: failed", format.GoDuration(took), format.GoDuration(s.Trip.WithDefaults().P99))
			}
			r.log.Append(event.Event{Kind: event.ToolCall, Outcome: outcome, Status: res.Status, Synthetic: true, Probe: true,
				Detail: detail, Chat: &event.Chat{Tool: probeTool, Dependency: tools.Dependency(probeTool), Elapsed: took}})
			if outcome == event.OK && !slow {
				return breaker.Success
			}
			return breaker.Failure
		}
		g.breakers[key] = breaker.New(s)
	}
	return g
}

// knownOrder is an order number the shop has, for synthetic probes.
func knownOrder(r *Run) string {
	for _, e := range r.set {
		if e.Truth.OrderNumber != "" {
			return e.Truth.OrderNumber
		}
	}
	return "DR-000000"
}

// close stops the breakers' timers and probes.
func (g *toolGuard) close() {
	if g == nil {
		return
	}
	for _, b := range g.breakers {
		b.Close()
	}
}

// toolOutcome classifies a tool call: ok, or why it failed.
func toolOutcome(ctx context.Context, res tools.Result, err error) event.Outcome {
	switch {
	case err != nil:
		return chain.Classify(ctx, err)
	case res.Err == nil:
		return event.OK
	case res.Status != 0:
		return chain.ClassifyStatus(res.Status)
	}
	return chain.Classify(ctx, res.Err)
}

// toolWrap wraps each dependency's transport with its outage windows
// (Config.ToolOutages), so inject's faults (hang, busy, slow, …) play the
// services' outages on their own windows.
func (r *Run) toolWrap(dep string, rt http.RoundTripper) http.RoundTripper {
	windows := r.cfg.ToolOutages[dep]
	if len(windows) == 0 {
		return rt
	}
	inj := inject.New(rt, r.start, inject.Options{Seed: r.cfg.Seed, Target: dep})
	for _, w := range windows {
		if err := inj.Add(w); err != nil {
			// Validate checked every window; an error here is a bug.
			panic(fmt.Sprintf("chat: tool outage on %s: %v", dep, err))
		}
	}
	return inj
}

// validateToolOutages checks every tool outage window.
func validateToolOutages(outages map[string][]event.Window) error {
	for dep, ws := range outages {
		if dep != tools.Orders && dep != tools.Carrier {
			return fmt.Errorf("tool outages: unknown dependency %q (valid: %s)", dep, strings.Join([]string{tools.Orders, tools.Carrier}, ", "))
		}
		for _, w := range ws {
			if err := inject.Validate(w); err != nil {
				return fmt.Errorf("tool outage on %s: %w", dep, err)
			}
		}
	}
	return nil
}

// slowerThan reports whether a call that took d breaks trip's p99 rule
// (when it has one): slower than its threshold.
func slowerThan(trip breaker.Trip, d time.Duration) bool {
	trip = trip.WithDefaults()
	return trip.Has(breaker.RuleP99) && d > trip.P99
}
