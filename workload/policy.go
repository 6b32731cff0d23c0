package workload

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
)

// BreakerPolicy configures a rung's breaker. Every zero value is drill's
// default: the breaker package documents them (breaker.Settings).
type BreakerPolicy struct {
	Trip         breaker.Trip  `json:"trip"`
	Cooldown     time.Duration `json:"cooldown_ns"`
	ProbeTimeout time.Duration `json:"probe_timeout_ns"`
	// Probes is how many customer calls go through while half-open: a
	// number, or all. Zero means 1.
	Probes Probes `json:"probes,omitempty"`
	// Probe is who probes: customer (default, "" too) or synthetic (the
	// breaker's own health call every ProbeInterval while open).
	Probe string `json:"probe,omitempty"`
	// ProbeInterval is the synthetic probe's period; zero means Cooldown.
	ProbeInterval time.Duration `json:"probe_interval_ns,omitempty"`
	// Stale is drop (default) or count: see breaker.Stale.
	Stale breaker.Stale `json:"stale,omitempty"`
	// RetryAfter is ignore (default) or honour: an open breaker stays open
	// at least as long as the Retry-After it saw.
	RetryAfter string `json:"retry_after,omitempty"`
	// Counting says which outcomes beyond timeouts, connection errors and
	// 5xx count as failures (count_429, count_invalid).
	chain.Counting
	// Scope is rung (default: one breaker per rung) or endpoint (one
	// breaker shared by every rung on the same base URL and model).
	Scope string `json:"scope,omitempty"`
}

// Values of the breaker's string options; "" is the first of each.
const (
	ProbeCustomer    = "customer"
	ProbeSynthetic   = "synthetic"
	RetryAfterIgnore = "ignore"
	RetryAfterHonour = "honour"
	BreakerScopeRung = "rung"
	BreakerScopeEndp = "endpoint"
)

// ProbeKinds, RetryAfterModes and BreakerScopes list the valid values.
var (
	ProbeKinds      = []string{ProbeCustomer, ProbeSynthetic}
	RetryAfterModes = []string{RetryAfterIgnore, RetryAfterHonour}
	BreakerScopes   = []string{BreakerScopeRung, BreakerScopeEndp}
)

// Probes is a half-open probe count: a number above 0, or all (every caller
// goes through). JSON and drill files spell it as a number or "all"; zero
// means the default, 1.
type Probes int

// ProbesAll is the probes: all setting.
const ProbesAll = Probes(breaker.ProbesAll)

// ParseProbes reads "all" or a number above 0.
func ParseProbes(s string) (Probes, error) {
	if s == "all" {
		return ProbesAll, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("invalid probes %q (valid: a number above 0, or all)", s)
	}
	return Probes(n), nil
}

// String is "all" or the number.
func (p Probes) String() string {
	if p == ProbesAll {
		return "all"
	}
	if p == 0 {
		return "1"
	}
	return strconv.Itoa(int(p))
}

// MarshalJSON writes "all" or the number.
func (p Probes) MarshalJSON() ([]byte, error) {
	if p == ProbesAll {
		return []byte(`"all"`), nil
	}
	return []byte(strconv.Itoa(int(p))), nil
}

// UnmarshalJSON reads "all" or a number.
func (p *Probes) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := ParseProbes(s)
		*p = v
		return err
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil || n < 0 {
		return fmt.Errorf("invalid probes %s (valid: a number above 0, or all)", b)
	}
	*p = Probes(n)
	return nil
}

// UnmarshalText reads "all" or a number (for YAML drill files and flags).
func (p *Probes) UnmarshalText(b []byte) error {
	v, err := ParseProbes(string(b))
	*p = v
	return err
}

// Settings returns the breaker settings of this policy for the rung name;
// the caller adds the callback and, for probe: synthetic, the probe.
func (bp BreakerPolicy) Settings(name string) breaker.Settings {
	return breaker.Settings{Name: name, Trip: bp.Trip, Cooldown: bp.Cooldown, ProbeTimeout: bp.ProbeTimeout,
		Probes: int(bp.Probes), Stale: bp.Stale, HonourRetryAfter: bp.RetryAfter == RetryAfterHonour,
		ProbeInterval: bp.ProbeInterval}
}

// RungPolicy configures one model rung.
type RungPolicy struct {
	TimeLimit time.Duration  `json:"time_limit_ns"`
	Retries   int            `json:"retries"`
	Breaker   *BreakerPolicy `json:"breaker,omitempty"`
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

// DefaultBreaker is the chapter's breaker: open after 5 failed calls within
// 10 s, stay open 5 s, then one probe.
func DefaultBreaker() *BreakerPolicy {
	return &BreakerPolicy{
		Trip:         breaker.Trip{Failures: 5, Window: 10 * time.Second},
		Cooldown:     5 * time.Second,
		ProbeTimeout: 30 * time.Second,
	}
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
		p.Primary.Breaker = DefaultBreaker()
	case "fail-fast":
		p.Backup, p.Canned = &backup, true
		p.Primary = RungPolicy{TimeLimit: 3 * time.Second, Retries: 0, Breaker: DefaultBreaker()}
	default:
		return Policy{}, fmt.Errorf("unknown policy %q (valid: %s)", name, strings.Join(presets, ", "))
	}
	return p, nil
}

// HasPrimary reports whether the chain has the primary model (every preset
// but backup-only).
func (p Policy) HasPrimary() bool { return p.Name != "backup-only" }

// validate says what is wrong with a breaker policy, listing valid values.
func (bp BreakerPolicy) validate() error {
	var errs []string
	oneOf := func(field, v string, valid []string) {
		if v != "" && !slices.Contains(valid, v) {
			errs = append(errs, fmt.Sprintf("unknown %s %q (valid: %s)", field, v, strings.Join(valid, ", ")))
		}
	}
	oneOf("probe", bp.Probe, ProbeKinds)
	oneOf("retry_after", bp.RetryAfter, RetryAfterModes)
	oneOf("scope", bp.Scope, BreakerScopes)
	if bp.Probes < ProbesAll {
		errs = append(errs, fmt.Sprintf("invalid probes %d (valid: a number above 0, or all)", bp.Probes))
	}
	if bp.ProbeInterval < 0 {
		errs = append(errs, fmt.Sprintf("probe interval must not be negative, got %s", bp.ProbeInterval))
	}
	if err := bp.Settings("").Validate(); err != nil {
		errs = append(errs, err.Error())
	}
	if len(errs) == 0 {
		return nil
	}
	return errors.New(strings.Join(errs, "; "))
}

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
			out = append(out, fmt.Sprintf("in-flight age %s", t.WithDefaults().InFlightAge))
		}
		if b.Probes != 0 && b.Probes != 1 {
			out = append(out, "probes "+b.Probes.String())
		}
		if b.Probe == ProbeSynthetic {
			out = append(out, "probe synthetic")
		}
		if b.Stale == breaker.StaleCount {
			out = append(out, "stale count")
		}
		if b.RetryAfter == RetryAfterHonour {
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
		if b.Scope == BreakerScopeEndp {
			out = append(out, "scope endpoint")
		}
	}
	if p.EmailDeadline > 0 {
		out = append(out, "email deadline "+p.EmailDeadline.String())
	}
	if p.HedgeAfter > 0 {
		out = append(out, "hedge after "+p.HedgeAfter.String())
	}
	if p.Rules {
		out = append(out, "rules rung")
	}
	if f := p.Primary.StreamFloor; f.MinTokensPerS > 0 {
		check := f.Check
		if check <= 0 {
			check = 3 * time.Second
		}
		out = append(out, fmt.Sprintf("stream floor %g tokens/s after %s", f.MinTokensPerS, check))
	}
	if p.Primary.MaxRetryDelay > 0 {
		out = append(out, "primary max retry delay "+p.Primary.MaxRetryDelay.String())
	}
	return out
}
