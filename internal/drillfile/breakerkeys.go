package drillfile

import (
	"fmt"
	"slices"
	"time"

	"github.com/drill-dev/drill/breaker"
)

// breakerKey is one drill-file key that sets a breaker setting: the key,
// and how its value (a field of a settings struct, found by its YAML key)
// is checked and set. The triage policy's overrides and the chat
// workload's tool_breakers: section read their breaker keys from the one
// table, breakerKeys, so a key means the same in both.
type breakerKey struct {
	key string
	// given reports whether the field (a pointer to a settings struct's
	// field) holds a value.
	given func(field any) bool
	// set checks the value and sets it on s; the error says why it is
	// refused, without the key.
	set func(field any, s *breaker.Settings) error
}

// durRule is how a duration setting is bounded.
type durRule int

const (
	atLeast0 durRule = iota // 0 or more
	above0                  // more than 0
)

// checkDuration checks d against rule.
func checkDuration(d Duration, rule durRule) error {
	switch {
	case rule == above0 && d <= 0:
		return fmt.Errorf("must be above 0, got %s", d)
	case d < 0:
		return fmt.Errorf("must not be negative, got %s", d)
	}
	return nil
}

// pointerKey is a breakerKey whose field is an optional value (**T); set
// checks the value and sets it.
func pointerKey[T any](key string, set func(*breaker.Settings, T) error) breakerKey {
	return breakerKey{key: key,
		given: func(f any) bool { p, ok := f.(**T); return ok && *p != nil },
		set:   func(f any, s *breaker.Settings) error { return set(s, **f.(**T)) }}
}

// durationKey is a duration setting bounded by rule.
func durationKey(key string, rule durRule, set func(*breaker.Settings, time.Duration)) breakerKey {
	return pointerKey(key, func(s *breaker.Settings, d Duration) error {
		if err := checkDuration(d, rule); err != nil {
			return err
		}
		set(s, d.D())
		return nil
	})
}

// countKey is a count setting of at least min.
func countKey(key string, min Int, set func(*breaker.Settings, int)) breakerKey {
	return pointerKey(key, func(s *breaker.Settings, n Int) error {
		if n < min {
			return fmt.Errorf("must be at least %d, got %d", min, n)
		}
		set(s, int(n))
		return nil
	})
}

// shareKey is a share of calls, above 0 and at most 1.
func shareKey(key string, set func(*breaker.Settings, float64)) breakerKey {
	return pointerKey(key, func(s *breaker.Settings, r float64) error {
		if !(r > 0 && r <= 1) {
			return fmt.Errorf("must be above 0 and at most 1 (a share of calls), got %v", r)
		}
		set(s, r)
		return nil
	})
}

// valueKey is a setting every value of which is set as given: a name the
// breaker's own Validate checks, or a yes/no.
func valueKey[T any](key string, set func(*breaker.Settings, T)) breakerKey {
	return pointerKey(key, func(s *breaker.Settings, v T) error { set(s, v); return nil })
}

// rulesKey is trip: the list of trip rules (a Rules field).
var rulesKey = breakerKey{key: "trip",
	given: func(f any) bool { r, ok := f.(*Rules); return ok && *r != nil },
	set: func(f any, s *breaker.Settings) error {
		s.Trip.Rules = slices.Clone(*f.(*Rules))
		return nil
	}}

// probesKey is probes: a number above 0 or all.
var probesKey = pointerKey("probes", func(s *breaker.Settings, w Word) error {
	n, err := breaker.ParseProbes(string(w))
	if err != nil {
		return err
	}
	s.Probes = n
	return nil
})

// breakerKeys are the drill-file keys of a breaker's settings, in the
// order their errors are reported.
var breakerKeys = []breakerKey{
	countKey("trip_failures", 1, func(s *breaker.Settings, n int) { s.Trip.Failures = n }),
	durationKey("trip_window", above0, func(s *breaker.Settings, d time.Duration) { s.Trip.Window = d }),
	durationKey("cooldown", above0, func(s *breaker.Settings, d time.Duration) { s.Cooldown = d }),
	rulesKey,
	countKey("trip_min_samples", 1, func(s *breaker.Settings, n int) { s.Trip.MinSamples = n }),
	shareKey("trip_failure_rate", func(s *breaker.Settings, r float64) { s.Trip.FailureRate = r }),
	durationKey("trip_slow_call", above0, func(s *breaker.Settings, d time.Duration) { s.Trip.SlowCall = d }),
	shareKey("trip_slow_rate", func(s *breaker.Settings, r float64) { s.Trip.SlowRate = r }),
	durationKey("trip_p99", above0, func(s *breaker.Settings, d time.Duration) { s.Trip.P99 = d }),
	durationKey("in_flight_age", above0, func(s *breaker.Settings, d time.Duration) { s.Trip.InFlightAge = d }),
	countKey("in_flight_calls", 1, func(s *breaker.Settings, n int) { s.Trip.InFlightCalls = n }),
	probesKey,
	valueKey("probe", func(s *breaker.Settings, v string) { s.Probe = breaker.ProbeKind(v) }),
	durationKey("probe_interval", above0, func(s *breaker.Settings, d time.Duration) { s.ProbeInterval = d }),
	durationKey("probe_timeout", above0, func(s *breaker.Settings, d time.Duration) { s.ProbeTimeout = d }),
	valueKey("stale", func(s *breaker.Settings, v string) { s.Stale = breaker.Stale(v) }),
	valueKey("retry_after", func(s *breaker.Settings, v string) { s.RetryAfter = breaker.RetryAfter(v) }),
	valueKey("count_429", func(s *breaker.Settings, v bool) { s.Count429 = v }),
	valueKey("count_invalid", func(s *breaker.Settings, v bool) { s.CountInvalid = v }),
	valueKey("count_slow_stream", func(s *breaker.Settings, v bool) { s.CountSlowStream = v }),
	valueKey("scope", func(s *breaker.Settings, v string) { s.Scope = breaker.Scope(v) }),
}

// setBreakerKeys sets on s every breaker key that the settings struct
// section points to gives, calling refuse for each value refused.
func setBreakerKeys(section any, s *breaker.Settings, refuse func(key string, err error)) {
	for _, k := range breakerKeys {
		f := fieldOf(section, k.key)
		if f == nil || !k.given(f) {
			continue
		}
		if err := k.set(f, s); err != nil {
			refuse(k.key, err)
		}
	}
}

// breakerKeysGiven lists the breaker keys the section gives.
func breakerKeysGiven(section any) []string {
	var keys []string
	for _, k := range breakerKeys {
		if f := fieldOf(section, k.key); f != nil && k.given(f) {
			keys = append(keys, k.key)
		}
	}
	return keys
}
