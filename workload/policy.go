package workload

import (
	"fmt"
	"strings"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
)

// BreakerPolicy configures a rung's breaker.
type BreakerPolicy struct {
	Trip         breaker.Trip  `json:"trip"`
	Cooldown     time.Duration `json:"cooldown_ns"`
	ProbeTimeout time.Duration `json:"probe_timeout_ns"`
}

// RungPolicy configures one model rung.
type RungPolicy struct {
	TimeLimit time.Duration  `json:"time_limit_ns"`
	Retries   int            `json:"retries"`
	Breaker   *BreakerPolicy `json:"breaker,omitempty"`
}

// Policy is how the chain is built: which rungs, their limits and breakers.
type Policy struct {
	Name    string      `json:"name"`
	Scope   chain.Scope `json:"time_limit_scope"`
	Primary RungPolicy  `json:"primary"`
	Backup  *RungPolicy `json:"backup,omitempty"` // nil: no backup rung
	Canned  bool        `json:"canned"`           // end in the canned reply
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
