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
	a := &applier{p: p, name: name, noBreaker: "policy %s has no breaker (" + breakerHint + ")"}
	a.oneOf("time_limit_scope", o.TimeLimitScope, []string{string(chain.ScopeAttempt), string(chain.ScopeRequest)},
		func(s string) { p.Scope = chain.Scope(s) })
	copyRungs(p)
	o.applyRungs(a)
	o.applyBreaker(a)
	o.applyStream(a)
	// The chain.
	a.dur("email_deadline", o.EmailDeadline, atLeast0, true, "", func(d Duration) { p.EmailDeadline = d.D() })
	a.dur("hedge_after", o.HedgeAfter, atLeast0, true, "", func(d Duration) { p.HedgeAfter = d.D() })
	a.flag("rules", o.Rules, true, "", func(v bool) { p.Rules = v })
	return errors.Join(a.errs...)
}

// copyRungs gives p its own backup rung and breaker: a preset's are never
// shared, but stay safe.
func copyRungs(p *workload.Policy) {
	if p.Backup != nil {
		b := *p.Backup
		p.Backup = &b
	}
	if p.Primary.Breaker != nil {
		b := *p.Primary.Breaker
		b.Trip.Rules = slices.Clone(b.Trip.Rules)
		p.Primary.Breaker = &b
	}
}

const (
	noPrimary = "policy %s has no primary rung"
	noBackup  = "policy %s has no backup rung"
)

// applyRungs sets the rungs' time limits and retries.
func (o Overrides) applyRungs(a *applier) {
	p, hasPrimary, hasBackup := a.p, a.p.HasPrimary(), a.p.Backup != nil
	a.dur("primary_timeout", o.PrimaryTimeout, atLeast0, hasPrimary, noPrimary, func(d Duration) { p.Primary.TimeLimit = d.D() })
	a.count("primary_retries", o.PrimaryRetries, 0, hasPrimary, noPrimary, func(n int) { p.Primary.Retries = n })
	a.dur("backup_timeout", o.BackupTimeout, atLeast0, hasBackup, noBackup, func(d Duration) { p.Backup.TimeLimit = d.D() })
	a.count("backup_retries", o.BackupRetries, 0, hasBackup, noBackup, func(n int) { p.Backup.Retries = n })
}

// applyBreaker sets the primary's breaker from the breaker keys
// (breakerKeys), then lets the breaker check its own settings (names,
// combinations): the keys check only a value as given (an explicit 0 is
// not the default the zero value stands for).
func (o Overrides) applyBreaker(a *applier) {
	b := a.p.Primary.Breaker
	if b == nil {
		for _, key := range breakerKeysGiven(&o) {
			a.bad(key, a.noBreaker, a.p.Name)
		}
		return
	}
	setBreakerKeys(&o, b, func(key string, err error) { a.bad(key, "%v", err) })
	var serrs interface{ Unwrap() []error }
	if err := b.Validate(); errors.As(err, &serrs) {
		for _, e := range serrs.Unwrap() {
			var se *breaker.SettingError
			if errors.As(e, &se) {
				a.errs = append(a.errs, &OverrideError{Key: se.Key, Name: a.name(se.Key), Msg: se.Why(a.name)})
			} else {
				a.errs = append(a.errs, e)
			}
		}
	}
}

// applyStream sets the primary's stream floor and its SDK's retry delay.
func (o Overrides) applyStream(a *applier) {
	p, hasPrimary := a.p, a.p.HasPrimary()
	if a.applies("min_tokens_per_s", o.MinTokensPerS != nil, hasPrimary, noPrimary) {
		if err := nonNegativeRate(*o.MinTokensPerS); err != nil {
			a.bad("min_tokens_per_s", "%v", err)
		} else {
			p.Primary.MinTokensPerS = *o.MinTokensPerS
		}
	}
	a.dur("stream_check", o.StreamCheck, above0, hasPrimary, noPrimary, func(d Duration) { p.Primary.Check = d.D() })
	a.dur("primary_max_retry_delay", o.MaxRetryDelay, atLeast0, hasPrimary, noPrimary, func(d Duration) { p.Primary.MaxRetryDelay = d.D() })
}

// applier sets overrides on a policy, gathering what it refuses.
type applier struct {
	p         *workload.Policy
	name      func(key string) string
	noBreaker string
	errs      []error
}

// bad refuses the setting of key, saying why.
func (a *applier) bad(key, format string, args ...any) {
	a.errs = append(a.errs, &OverrideError{Key: key, Name: a.name(key), Msg: fmt.Sprintf(format, args...)})
}

// oneOf sets v if it is one of valid.
func (a *applier) oneOf(key string, v *string, valid []string, set func(string)) {
	switch {
	case v == nil:
	case !slices.Contains(valid, *v):
		a.bad(key, "unknown value %q (valid: %s)", *v, strings.Join(valid, ", "))
	default:
		set(*v)
	}
}

// applies reports whether a given override can be set, saying why not.
func (a *applier) applies(key string, given, has bool, why string) bool {
	if given && !has {
		a.bad(key, why, a.p.Name)
	}
	return given && has
}

// dur sets a duration bounded by rule.
func (a *applier) dur(key string, d *Duration, rule durRule, has bool, why string, set func(Duration)) {
	if !a.applies(key, d != nil, has, why) {
		return
	}
	if err := checkDuration(*d, rule); err != nil {
		a.bad(key, "%v", err)
		return
	}
	set(*d)
}

// count sets a count of at least min.
func (a *applier) count(key string, n *Int, min Int, has bool, why string, set func(int)) {
	switch {
	case !a.applies(key, n != nil, has, why):
	case *n < min:
		a.bad(key, "must be at least %d, got %d", min, *n)
	default:
		set(int(*n))
	}
}

// flag sets a yes/no.
func (a *applier) flag(key string, v *bool, has bool, why string, set func(bool)) {
	if a.applies(key, v != nil, has, why) {
		set(*v)
	}
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
