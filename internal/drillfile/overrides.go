package drillfile

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/workload"
)

// Overrides are the policy settings a file or a flag may change. Each is
// a drill-file key and a flag of `drill run`: the key with dashes
// (FlagName), so --primary-timeout is primary_timeout; only the breaker's
// scope is --breaker-scope. A nil field (an absent key, an unset flag)
// keeps the preset's value. Apply is the one place they are checked and
// set, for files and flags alike.
type Overrides struct {
	TimeLimitScope *string   `yaml:"time_limit_scope"`
	PrimaryTimeout *Duration `yaml:"primary_timeout"`
	PrimaryRetries *Int      `yaml:"primary_retries"`
	BackupTimeout  *Duration `yaml:"backup_timeout"`
	BackupRetries  *Int      `yaml:"backup_retries"`
	TripFailures   *Int      `yaml:"trip_failures"`
	TripWindow     *Duration `yaml:"trip_window"`
	Cooldown       *Duration `yaml:"cooldown"`

	// Trip lists the breaker's trip rules, any combination of
	// breaker.RuleNames (default [count]).
	Trip            Rules     `yaml:"trip"`
	TripMinSamples  *Int      `yaml:"trip_min_samples"`
	TripFailureRate *float64  `yaml:"trip_failure_rate"`
	TripSlowCall    *Duration `yaml:"trip_slow_call"`
	TripSlowRate    *float64  `yaml:"trip_slow_rate"`
	TripP99         *Duration `yaml:"trip_p99"`
	InFlightAge     *Duration `yaml:"in_flight_age"`
	InFlightCalls   *Int      `yaml:"in_flight_calls"`
	// Probes is a number above 0 or all.
	Probes        *Word     `yaml:"probes"`
	Probe         *string   `yaml:"probe"`
	ProbeInterval *Duration `yaml:"probe_interval"`
	ProbeTimeout  *Duration `yaml:"probe_timeout"`
	Stale         *string   `yaml:"stale"`
	RetryAfter    *string   `yaml:"retry_after"`
	Count429      *bool     `yaml:"count_429"`
	CountInvalid  *bool     `yaml:"count_invalid"`
	CountSlow     *bool     `yaml:"count_slow_stream"`
	// BreakerScope is the breaker's scope, rung or endpoint
	// (--breaker-scope).
	BreakerScope  *string   `yaml:"scope"`
	MinTokensPerS *float64  `yaml:"min_tokens_per_s"`
	StreamCheck   *Duration `yaml:"stream_check"`

	EmailDeadline *Duration `yaml:"email_deadline"`
	HedgeAfter    *Duration `yaml:"hedge_after"`
	Rules         *bool     `yaml:"rules"`
	MaxRetryDelay *Duration `yaml:"primary_max_retry_delay"`
}

// Rules is a list of trip rule names, written as a YAML list:
// [count, in-flight].
type Rules []string

// UnmarshalYAML implements yaml.NodeUnmarshaler: a list of names.
func (r *Rules) UnmarshalYAML(n ast.Node) error {
	seq, ok := n.(*ast.SequenceNode)
	if !ok {
		return nodeErrorf(n, "%swant a list of rules such as [count, in-flight], got %s", keyPrefix(n), describe(n))
	}
	out := Rules{}
	for _, v := range seq.Values {
		s, ok := v.(ast.ScalarNode)
		if _, null := v.(*ast.NullNode); !ok || null {
			return nodeErrorf(v, "a trip rule is a name, got %s", describe(v))
		}
		out = append(out, fmt.Sprint(s.GetValue()))
	}
	*r = out
	return nil
}

// Word is a scalar kept as text, whatever YAML would make of it: probes
// is 2 or all.
type Word string

// UnmarshalYAML implements yaml.NodeUnmarshaler: any single value.
func (w *Word) UnmarshalYAML(n ast.Node) error {
	s, ok := n.(ast.ScalarNode)
	if _, null := n.(*ast.NullNode); !ok || null {
		return nodeErrorf(n, "%swant a single value, got %s", keyPrefix(n), describe(n))
	}
	*w = Word(fmt.Sprint(s.GetValue()))
	return nil
}

// flagNames are the override keys whose flag is not the key with dashes.
var flagNames = map[string]string{"scope": "breaker-scope"}

// FlagName is the `drill run` flag (without dashes) of an override key.
func FlagName(key string) string {
	if f, ok := flagNames[key]; ok {
		return f
	}
	return strings.ReplaceAll(key, "_", "-")
}

// OverrideKeys lists every override's drill-file key, in the order of
// Overrides.
func OverrideKeys() []string { return keysOf[Overrides]() }

func yamlKey(f reflect.StructField) string {
	k, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	return k
}

// keysOf lists the YAML keys of a settings struct's fields (Overrides,
// ChatPolicy), in field order.
func keysOf[T any]() []string {
	t := reflect.TypeFor[T]()
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i] = yamlKey(t.Field(i))
	}
	return keys
}

// fieldOf returns a pointer to the field of the struct s points to whose
// YAML key is key, or nil for an unknown key.
func fieldOf(s any, key string) any {
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		if yamlKey(v.Type().Field(i)) == key {
			return v.Field(i).Addr().Interface()
		}
	}
	return nil
}

// Field returns a pointer to the override field of a key (a **T for the
// optional settings, *[]string for trip), or nil for an unknown key: for
// setting overrides from flags without a second list of them.
func (o *Overrides) Field(key string) any { return fieldOf(o, key) }

// Merge returns o with every override that top sets taken from top.
func (o Overrides) Merge(top Overrides) Overrides { return mergeSet(o, top) }

// mergeSet is base with every field top sets (a non-nil pointer or slice)
// taken from top: a settings struct's fields are all optional.
func mergeSet[T any](base, top T) T {
	bv, tv := reflect.ValueOf(&base).Elem(), reflect.ValueOf(top)
	for i := range tv.NumField() {
		if !tv.Field(i).IsNil() {
			bv.Field(i).Set(tv.Field(i))
		}
	}
	return base
}

// Set lists the overrides that are given as "key value", in the order of
// Overrides, for describing a policy.
func (o Overrides) Set() []string {
	var out []string
	v := reflect.ValueOf(o)
	for i := range v.NumField() {
		f := v.Field(i)
		if f.IsNil() {
			continue
		}
		val := fmt.Sprint(reflect.Indirect(f).Interface())
		if list, ok := f.Interface().(Rules); ok {
			val = "[" + strings.Join(list, ", ") + "]"
		}
		out = append(out, yamlKey(v.Type().Field(i))+" "+val)
	}
	return out
}

// OverrideError is an override that cannot be applied: its key, as in the
// file, how the message names it, and why.
type OverrideError struct {
	// Key is the drill-file key.
	Key string
	// Name is the setting as the user wrote it: the key, or the flag.
	Name string
	// Msg says why, naming any other setting the same way.
	Msg string
}

// Error formats as "name: why".
func (e *OverrideError) Error() string { return e.Name + ": " + e.Msg }

// Apply sets the overrides that are given on the policy. An override of a
// rung or breaker the policy does not have, a value out of range, or an
// unknown value (the message lists the valid ones) is an *OverrideError
// naming drill-file keys; several are joined.
func (o Overrides) Apply(p *workload.Policy) error {
	return o.apply(p, func(key string) string { return key }, "try preset breaker, or breaker: true")
}

// ApplyFlags is Apply with messages naming the flags (--probe-interval).
func (o Overrides) ApplyFlags(p *workload.Policy) error {
	return o.apply(p, func(key string) string { return "--" + FlagName(key) }, "try --policy breaker")
}

// apply is Apply with name saying how messages name a setting by its key,
// and breakerHint how to get a breaker.
func (o Overrides) apply(p *workload.Policy, name func(key string) string, breakerHint string) error {
	var errs []error
	bad := func(key, format string, a ...any) {
		errs = append(errs, &OverrideError{Key: key, Name: name(key), Msg: fmt.Sprintf(format, a...)})
	}
	oneOf := func(key string, v *string, valid []string, set func(string)) {
		switch {
		case v == nil:
		case !slices.Contains(valid, *v):
			bad(key, "unknown value %q (valid: %s)", *v, strings.Join(valid, ", "))
		default:
			set(*v)
		}
	}
	oneOf("time_limit_scope", o.TimeLimitScope, []string{string(chain.ScopeAttempt), string(chain.ScopeRequest)},
		func(s string) { p.Scope = chain.Scope(s) })

	// Copies: a preset's rungs and breaker are never shared, but stay safe.
	if p.Backup != nil {
		b := *p.Backup
		p.Backup = &b
	}
	if p.Primary.Breaker != nil {
		b := *p.Primary.Breaker
		b.Trip.Rules = slices.Clone(b.Trip.Rules)
		p.Primary.Breaker = &b
	}
	const (
		noPrimary = "policy %s has no primary rung"
		noBackup  = "policy %s has no backup rung"
	)
	noBreaker := "policy %s has no breaker (" + breakerHint + ")"
	hasPrimary, hasBackup, b := p.HasPrimary(), p.Backup != nil, p.Primary.Breaker
	// applies reports whether a given override can be set, saying why not.
	applies := func(key string, given, has bool, why string) bool {
		if given && !has {
			bad(key, why, p.Name)
		}
		return given && has
	}
	type durRule int
	const (
		atLeast0 durRule = iota
		above0
	)
	dur := func(key string, d *Duration, rule durRule, has bool, why string, set func(Duration)) {
		switch {
		case !applies(key, d != nil, has, why):
		case rule == above0 && *d <= 0:
			bad(key, "must be above 0, got %s", *d)
		case *d < 0:
			bad(key, "must not be negative, got %s", *d)
		default:
			set(*d)
		}
	}
	count := func(key string, n *Int, min Int, has bool, why string, set func(int)) {
		switch {
		case !applies(key, n != nil, has, why):
		case *n < min:
			bad(key, "must be at least %d, got %d", min, *n)
		default:
			set(int(*n))
		}
	}
	share := func(key string, r *float64, set func(float64)) {
		switch {
		case !applies(key, r != nil, b != nil, noBreaker):
		case !(*r > 0 && *r <= 1):
			bad(key, "must be above 0 and at most 1 (a share of calls), got %v", *r)
		default:
			set(*r)
		}
	}
	flag := func(key string, v *bool, has bool, why string, set func(bool)) {
		if applies(key, v != nil, has, why) {
			set(*v)
		}
	}

	dur("primary_timeout", o.PrimaryTimeout, atLeast0, hasPrimary, noPrimary, func(d Duration) { p.Primary.TimeLimit = d.D() })
	count("primary_retries", o.PrimaryRetries, 0, hasPrimary, noPrimary, func(n int) { p.Primary.Retries = n })
	dur("backup_timeout", o.BackupTimeout, atLeast0, hasBackup, noBackup, func(d Duration) { p.Backup.TimeLimit = d.D() })
	count("backup_retries", o.BackupRetries, 0, hasBackup, noBackup, func(n int) { p.Backup.Retries = n })

	// The primary's breaker.
	hasBreaker := b != nil
	count("trip_failures", o.TripFailures, 1, hasBreaker, noBreaker, func(n int) { b.Trip.Failures = n })
	dur("trip_window", o.TripWindow, above0, hasBreaker, noBreaker, func(d Duration) { b.Trip.Window = d.D() })
	dur("cooldown", o.Cooldown, above0, hasBreaker, noBreaker, func(d Duration) { b.Cooldown = d.D() })
	if applies("trip", o.Trip != nil, hasBreaker, noBreaker) {
		b.Trip.Rules = slices.Clone(o.Trip)
	}
	count("trip_min_samples", o.TripMinSamples, 1, hasBreaker, noBreaker, func(n int) { b.Trip.MinSamples = n })
	share("trip_failure_rate", o.TripFailureRate, func(r float64) { b.Trip.FailureRate = r })
	dur("trip_slow_call", o.TripSlowCall, above0, hasBreaker, noBreaker, func(d Duration) { b.Trip.SlowCall = d.D() })
	share("trip_slow_rate", o.TripSlowRate, func(r float64) { b.Trip.SlowRate = r })
	dur("trip_p99", o.TripP99, above0, hasBreaker, noBreaker, func(d Duration) { b.Trip.P99 = d.D() })
	dur("in_flight_age", o.InFlightAge, above0, hasBreaker, noBreaker, func(d Duration) { b.Trip.InFlightAge = d.D() })
	count("in_flight_calls", o.InFlightCalls, 1, hasBreaker, noBreaker, func(n int) { b.Trip.InFlightCalls = n })
	if applies("probes", o.Probes != nil, hasBreaker, noBreaker) {
		if n, err := breaker.ParseProbes(string(*o.Probes)); err != nil {
			bad("probes", "%v", err)
		} else {
			b.Probes = n
		}
	}
	text := func(key string, v *string, set func(string)) {
		if applies(key, v != nil, hasBreaker, noBreaker) {
			set(*v)
		}
	}
	text("probe", o.Probe, func(s string) { b.Probe = breaker.ProbeKind(s) })
	dur("probe_interval", o.ProbeInterval, above0, hasBreaker, noBreaker, func(d Duration) { b.ProbeInterval = d.D() })
	dur("probe_timeout", o.ProbeTimeout, above0, hasBreaker, noBreaker, func(d Duration) { b.ProbeTimeout = d.D() })
	text("stale", o.Stale, func(s string) { b.Stale = breaker.Stale(s) })
	text("retry_after", o.RetryAfter, func(s string) { b.RetryAfter = breaker.RetryAfter(s) })
	flag("count_429", o.Count429, hasBreaker, noBreaker, func(v bool) { b.Count429 = v })
	flag("count_invalid", o.CountInvalid, hasBreaker, noBreaker, func(v bool) { b.CountInvalid = v })
	flag("count_slow_stream", o.CountSlow, hasBreaker, noBreaker, func(v bool) { b.CountSlowStream = v })
	text("scope", o.BreakerScope, func(s string) { b.Scope = breaker.Scope(s) })
	if hasBreaker {
		// The breaker checks its own settings (names, combinations);
		// above are only the checks of a value as given (an explicit 0
		// is not the default the zero value stands for).
		var serrs interface{ Unwrap() []error }
		if err := b.Validate(); errors.As(err, &serrs) {
			for _, e := range serrs.Unwrap() {
				var se *breaker.SettingError
				if errors.As(e, &se) {
					errs = append(errs, &OverrideError{Key: se.Key, Name: name(se.Key), Msg: se.Why(name)})
				} else {
					errs = append(errs, e)
				}
			}
		}
	}

	// The primary's stream floor and SDK.
	if applies("min_tokens_per_s", o.MinTokensPerS != nil, hasPrimary, noPrimary) {
		if err := nonNegativeRate(*o.MinTokensPerS); err != nil {
			bad("min_tokens_per_s", "%v", err)
		} else {
			p.Primary.MinTokensPerS = *o.MinTokensPerS
		}
	}
	dur("stream_check", o.StreamCheck, above0, hasPrimary, noPrimary, func(d Duration) { p.Primary.Check = d.D() })
	dur("primary_max_retry_delay", o.MaxRetryDelay, atLeast0, hasPrimary, noPrimary, func(d Duration) { p.Primary.MaxRetryDelay = d.D() })

	// The chain.
	dur("email_deadline", o.EmailDeadline, atLeast0, true, "", func(d Duration) { p.EmailDeadline = d.D() })
	dur("hedge_after", o.HedgeAfter, atLeast0, true, "", func(d Duration) { p.HedgeAfter = d.D() })
	flag("rules", o.Rules, true, "", func(v bool) { p.Rules = v })
	return errors.Join(errs...)
}

// nonNegativeRate checks a rate a file gives (min_tokens_per_s): a finite
// number, 0 or more.
func nonNegativeRate(v float64) error {
	if err := edge.Finite(v); err != nil {
		return err
	}
	if v < 0 {
		return fmt.Errorf("must not be negative, got %v", v)
	}
	return nil
}
