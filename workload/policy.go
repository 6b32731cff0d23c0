package workload

import (
	"fmt"
	"strings"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/suggest"
)

// RungPolicy configures one model rung.
type RungPolicy struct {
	TimeLimit time.Duration `json:"time_limit_ns"`
	Retries   int           `json:"retries"`
	// Breaker is the rung's breaker; nil for none. Its zero value is
	// drill's default breaker (see breaker.Settings).
	Breaker *breaker.Settings `json:"breaker,omitempty"`
	// MaxRetryDelay caps the SDK's wait before a retry, Retry-After
	// included (openai-go's WithMaxRetryDelay); 0 means the SDK's 2 min.
	MaxRetryDelay time.Duration `json:"max_retry_delay_ns,omitempty"`
	// StreamFloor cuts a streamed answer delivering fewer than
	// min_tokens_per_s tokens a second, checked stream_check into the
	// stream and every stream_check after (outcome slow_stream; counted by
	// a breaker with count_slow_stream). Off by default.
	chain.StreamFloor
}

// Policy is how the chain is built: which rungs, their limits and breakers.
type Policy struct {
	Name    string      `json:"name"`
	Scope   chain.Scope `json:"time_limit_scope"`
	Primary RungPolicy  `json:"primary"`
	Backup  *RungPolicy `json:"backup,omitempty"` // nil: no backup rung
	Canned  bool        `json:"canned"`           // end in the canned reply
	// Rules adds the rules rung (keyword triage, no model call) before
	// the canned reply.
	Rules bool `json:"rules,omitempty"`
	// EmailDeadline is one budget per email across the whole chain; 0: none.
	EmailDeadline time.Duration `json:"email_deadline_ns,omitempty"`
	// HedgeAfter asks the backup too when the primary has not answered
	// after it; 0: no hedging.
	HedgeAfter time.Duration `json:"hedge_after_ns,omitempty"`
}

var presets = []string{"primary-only", "backup-only", "fallback", "breaker", "fail-fast"}

// PresetNames lists the policy presets in the chapter's order.
func PresetNames() []string { return append([]string(nil), presets...) }

// Preset returns a policy preset by name, or an error listing the valid names.
func Preset(name string) (Policy, error) {
	standard := RungPolicy{TimeLimit: 5 * time.Second, Retries: 2}
	backup := standard
	p := Policy{Name: name, Scope: chain.ScopeAttempt, Primary: standard}
	switch name {
	case "primary-only":
	case "backup-only":
		// The backup model alone, same limits: its quality baseline. It
		// is built as the chain's only rung, named backup.
		p.Backup = &backup
	case "fallback":
		p.Backup, p.Canned = &backup, true
	case "breaker":
		p.Backup, p.Canned = &backup, true
		p.Primary.Breaker = &breaker.Settings{} // the chapter's: the zero value
	case "fail-fast":
		p.Backup, p.Canned = &backup, true
		p.Primary = RungPolicy{TimeLimit: 3 * time.Second, Retries: 0, Breaker: &breaker.Settings{}}
	default:
		return Policy{}, fmt.Errorf("unknown policy %q (valid: %s)%s", name, strings.Join(presets, ", "), suggest.DidYouMean(name, "", presets))
	}
	return p, nil
}

// HasPrimary reports whether the chain has the primary model (every preset
// but backup-only).
func (p Policy) HasPrimary() bool { return p.Name != "backup-only" }

// Options describes the breaker rules and chain options of p that differ
// from drill's defaults, for the dashboard header and reports: "trip
// count+in-flight", "in-flight age 4s", "probes all", "stale count", "hedge
// after 2s" and so on. Empty for defaults.
func (p Policy) Options() []string {
	var out []string
	if b := p.Primary.Breaker; b != nil {
		t := b.Trip
		if len(t.Rules) > 0 && !(len(t.Rules) == 1 && t.Rules[0] == breaker.RuleCount) {
			out = append(out, "trip "+strings.Join(t.Rules, "+"))
		}
		if t.Has(breaker.RuleInFlight) {
			out = append(out, "in-flight age "+format.GoDuration(t.WithDefaults().InFlightAge))
		}
		if b.Probes != 0 && b.Probes != 1 {
			out = append(out, "probes "+b.Probes.String())
		}
		if b.Probe == breaker.ProbeSynthetic {
			out = append(out, "probe synthetic")
		}
		if b.Stale == breaker.StaleCount {
			out = append(out, "stale count")
		}
		if b.RetryAfter == breaker.RetryAfterHonour {
			out = append(out, "retry-after honour")
		}
		if b.Count429 {
			out = append(out, "count 429")
		}
		if b.CountInvalid {
			out = append(out, "count invalid")
		}
		if b.CountSlowStream {
			out = append(out, "count slow stream")
		}
		if b.Scope == breaker.ScopeEndpoint {
			out = append(out, "scope endpoint")
		}
	}
	if p.EmailDeadline > 0 {
		out = append(out, "email deadline "+format.GoDuration(p.EmailDeadline))
	}
	if p.HedgeAfter > 0 {
		out = append(out, "hedge after "+format.GoDuration(p.HedgeAfter))
	}
	if p.Rules {
		out = append(out, "rules rung")
	}
	if f := p.Primary.StreamFloor; f.MinTokensPerS > 0 {
		check := f.Check
		if check <= 0 {
			check = 3 * time.Second
		}
		out = append(out, fmt.Sprintf("stream floor %g tokens/s after %s", f.MinTokensPerS, format.GoDuration(check)))
	}
	if p.Primary.MaxRetryDelay > 0 {
		out = append(out, "primary max retry delay "+format.GoDuration(p.Primary.MaxRetryDelay))
	}
	return out
}
