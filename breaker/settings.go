package breaker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
)

// Settings configures a Breaker: the one type that flags, drill files, the
// journal header (Record) and the dashboard header all map onto. Like
// gobreaker's Settings, its zero value is safe and is drill's default
// breaker, the chapter's: 5 failures within 10 s open it, it stays open 5 s,
// then one customer call probes; stale results are dropped and Retry-After
// is ignored. Every field documents what its zero value means; WithDefaults
// writes the defaults down, once. The JSON form is what a journal header
// records of a policy; the callbacks are not recorded.
type Settings struct {
	// Name identifies the breaker in changes (usually the rung it guards).
	Name string `json:"-"`
	// Trip says which rules open a closed breaker. The zero value is 5
	// failures within 10 s.
	Trip Trip `json:"trip"`
	// Cooldown is how long the breaker stays open before it lets a probe
	// through. Zero means 5 s.
	Cooldown time.Duration `json:"cooldown_ns"`
	// ProbeTimeout bounds how long a half-open breaker waits for a probe's
	// result (and how long a synthetic probe may take): a probe that never
	// reports back is counted as failed, so a lost probe cannot leave the
	// breaker stuck. Zero means 30 s.
	ProbeTimeout time.Duration `json:"probe_timeout_ns"`
	// Probes is how many customer calls a half-open breaker lets through at
	// once; it closes after that many succeed and opens on any failure.
	// Zero means 1; ProbesAll lets every caller through.
	Probes Probes `json:"probes,omitempty"`
	// Probe says who probes a recovering model: a customer's call
	// (ProbeCustomer, and the zero value) or the breaker's own health call
	// (ProbeSynthetic), which whoever builds the breaker supplies as
	// Synthetic.
	Probe ProbeKind `json:"probe,omitempty"`
	// ProbeInterval is how often an open breaker runs Synthetic. Zero means
	// Cooldown.
	ProbeInterval time.Duration `json:"probe_interval_ns,omitempty"`
	// Stale says what happens to results of calls from an earlier state.
	// Empty means StaleDrop.
	Stale Stale `json:"stale,omitempty"`
	// RetryAfter is RetryAfterHonour to keep an open breaker open at least
	// as long as the largest Retry-After it saw (reported with Finish).
	// Empty means RetryAfterIgnore.
	RetryAfter RetryAfter `json:"retry_after,omitempty"`
	// Counting says which outcomes beyond timeouts, connection errors and
	// 5xx its caller counts as failures. The zero value counts only those.
	Counting
	// Scope says which calls share the breaker: one per rung (ScopeRung,
	// and the zero value) or one per endpoint, shared by every rung calling
	// the same base URL and model (ScopeEndpoint). Whoever builds the
	// breakers applies it.
	Scope Scope `json:"scope,omitempty"`

	// Synthetic, if set, is the breaker's own health call: while open, the
	// breaker runs it every ProbeInterval and closes when it succeeds. No
	// customer call goes through while the breaker is open or half-open.
	// It is called without the breaker's lock and must honour ctx.
	Synthetic func(ctx context.Context) Result `json:"-"`
	// OnChange, if set, is called for every change of state, in order,
	// with the breaker's lock held: it must not call back into the breaker.
	OnChange func(Change) `json:"-"`
	// Now is the clock; nil means time.Now. With nil, the breaker also
	// sets its own timers so that changes that time alone makes (half-open
	// after the cooldown, in-flight age, lost probes) happen on time; with
	// a clock of the caller's, they happen when the breaker is next asked.
	Now func() time.Time `json:"-"`
	// Store, if set, shares this breaker's state with every breaker of the
	// same Name using the same store (see Store); nil keeps it in this
	// process alone. Only the count rule can be shared; RetryAfter,
	// Synthetic and Probes other than 1 apply only while the store is
	// unreachable and the breaker decides alone.
	Store Store `json:"-"`
}

// Counting says which outcomes a breaker counts as failures beyond the
// transient ones (timeouts, connection errors, 5xx), which always count.
// The caller classifies outcomes (package chain); the zero value counts only
// the transient ones.
type Counting struct {
	// Count429 counts a rate limit (429) as a failure.
	Count429 bool `json:"count_429,omitempty"`
	// CountInvalid counts an answer that fails the schema as a failure.
	CountInvalid bool `json:"count_invalid,omitempty"`
	// CountSlowStream counts a stream cut by a stream-rate floor as a
	// failure.
	CountSlowStream bool `json:"count_slow_stream,omitempty"`
}

// WithDefaults returns s with every zero value set to its default: the one
// place drill's breaker defaults are written.
func (s Settings) WithDefaults() Settings {
	if s.Cooldown <= 0 {
		s.Cooldown = 5 * time.Second
	}
	if s.ProbeTimeout <= 0 {
		s.ProbeTimeout = 30 * time.Second
	}
	if s.Probes == 0 {
		s.Probes = 1
	}
	if s.Probe == "" {
		s.Probe = ProbeCustomer
	}
	if s.Stale == "" {
		s.Stale = StaleDrop
	}
	if s.RetryAfter == "" {
		s.RetryAfter = RetryAfterIgnore
	}
	if s.Scope == "" {
		s.Scope = ScopeRung
	}
	if s.ProbeInterval <= 0 {
		s.ProbeInterval = s.Cooldown
	}
	s.Trip = s.Trip.WithDefaults()
	return s
}

// SettingError is a setting that is not valid: its key (the drill-file
// key; flags spell it with dashes) and why.
type SettingError struct {
	// Key is the setting's drill-file key, e.g. "probes" or "trip".
	Key string
	// Msg says why, listing valid values where there is a list. Another
	// setting it names is written as its key in braces ("{trip}"), so the
	// message can name it as the user wrote it (Why).
	Msg string
}

// Error formats as "key: why", other settings named by their keys.
func (e *SettingError) Error() string {
	return e.Key + ": " + e.Why(func(key string) string { return key })
}

// Why is the message with every other setting it mentions named by name:
// the key in a drill file, the flag on the command line.
func (e *SettingError) Why(name func(key string) string) string {
	var b strings.Builder
	rest := e.Msg
	for {
		i := strings.IndexByte(rest, '{')
		j := strings.IndexByte(rest[max(i, 0):], '}') + max(i, 0)
		if i < 0 || j < i {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:i])
		b.WriteString(name(rest[i+1 : j]))
		rest = rest[j+1:]
	}
}

// Validate says what is wrong with s, listing valid values: the one place
// a breaker's settings are checked, for flags, drill files and code alike.
// Each problem is a *SettingError; several are joined.
func (s Settings) Validate() error {
	var errs []error
	bad := func(key, format string, a ...any) {
		errs = append(errs, &SettingError{Key: key, Msg: fmt.Sprintf(format, a...)})
	}
	errs = append(errs, s.Trip.validate()...)
	oneOf := func(key, v string, valid []string) {
		if v != "" && !slices.Contains(valid, v) {
			bad(key, "unknown value %q (valid: %s)", v, strings.Join(valid, ", "))
		}
	}
	oneOf("probe", string(s.Probe), ProbeKinds())
	oneOf("stale", string(s.Stale), StaleModes())
	oneOf("retry_after", string(s.RetryAfter), RetryAfterModes())
	oneOf("scope", string(s.Scope), Scopes())
	if s.Probes < ProbesAll {
		bad("probes", "invalid probes %d (valid: a number above 0, or all)", s.Probes)
	}
	negative := func(key string, d time.Duration) {
		if d < 0 {
			bad(key, "must not be negative, got %s", d)
		}
	}
	negative("cooldown", s.Cooldown)
	negative("probe_timeout", s.ProbeTimeout)
	negative("probe_interval", s.ProbeInterval)
	if s.ProbeInterval != 0 && s.Probe != ProbeSynthetic {
		bad("probe_interval", "needs {probe} synthetic")
	}
	t := s.Trip
	if (t.InFlightAge != 0 || t.InFlightCalls != 0) && !t.Has(RuleInFlight) {
		bad("in_flight_age", "{in_flight_age} and {in_flight_calls} need the in-flight rule ({trip} count,in-flight)")
	}
	return errors.Join(errs...)
}

// Probes is a half-open probe count: a number above 0, or all (every caller
// goes through). JSON and drill files spell it as a number or "all"; zero
// means the default, 1.
type Probes int

// ProbesAll lets every caller through while half-open (the chapter's lab
// breaker): the first success closes the breaker, the first failure opens it.
const ProbesAll Probes = -1

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

// ProbeKind says who probes a half-open breaker.
type ProbeKind string

// Probe kinds.
const (
	// ProbeCustomer lets customer calls through as probes. The default.
	ProbeCustomer ProbeKind = "customer"
	// ProbeSynthetic runs the breaker's own health call (Settings.Synthetic).
	ProbeSynthetic ProbeKind = "synthetic"
)

// ProbeKinds lists the valid ProbeKind values, the default first.
func ProbeKinds() []string { return []string{string(ProbeCustomer), string(ProbeSynthetic)} }

// Stale says what happens to the result of a call that started in an
// earlier state (an earlier generation) of the breaker.
type Stale string

// Stale policies.
const (
	// StaleDrop drops such results (gobreaker's generation counter): a call
	// that started while closed and failed after the breaker opened says
	// nothing new. The default.
	StaleDrop Stale = "drop"
	// StaleCount counts them as the chapter's lab breaker did: in the
	// closed state they feed the trip rules, a failure while open restarts
	// the cooldown, and a failure while half-open opens the breaker again.
	StaleCount Stale = "count"
)

// StaleModes lists the valid Stale values, the default first.
func StaleModes() []string { return []string{string(StaleDrop), string(StaleCount)} }

// RetryAfter says whether an open breaker honours a server's Retry-After.
type RetryAfter string

// Retry-After modes.
const (
	// RetryAfterIgnore ignores Retry-After. The default.
	RetryAfterIgnore RetryAfter = "ignore"
	// RetryAfterHonour keeps an open breaker open at least as long as the
	// largest Retry-After it saw.
	RetryAfterHonour RetryAfter = "honour"
)

// RetryAfterModes lists the valid RetryAfter values, the default first.
func RetryAfterModes() []string { return []string{string(RetryAfterIgnore), string(RetryAfterHonour)} }

// Scope says which calls share a breaker.
type Scope string

// Breaker scopes.
const (
	// ScopeRung is one breaker per rung. The default.
	ScopeRung Scope = "rung"
	// ScopeEndpoint is one breaker per endpoint (base URL and model),
	// shared by every rung that calls it.
	ScopeEndpoint Scope = "endpoint"
)

// Scopes lists the valid Scope values, the default first.
func Scopes() []string { return []string{string(ScopeRung), string(ScopeEndpoint)} }

// Record is what a run's header records of the settings, for the fold, the
// dashboard header and reports: the trip rule in words and its figures with
// their defaults filled in, as the breaker applies them.
func (s Settings) Record() *event.BreakerSettings {
	d := s.WithDefaults()
	// However the rules were given (--trip consecutive, or the older
	// consecutive: true), the consecutive rule without the count rule is
	// "consecutive"; the window is recorded where a rule counts in one.
	r := &event.BreakerSettings{Rule: d.Trip.String(), Consecutive: d.Trip.Has(RuleConsecutive) && !d.Trip.Has(RuleCount),
		Failures: d.Trip.Failures, Cooldown: d.Cooldown, ProbeTimeout: d.ProbeTimeout}
	if d.Trip.Windowed() {
		r.Window = d.Trip.Window
	}
	return r
}
