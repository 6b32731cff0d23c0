package breaker

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/drill-dev/drill/internal/format"
)

// Call is one finished call as a trip rule sees it: when it ended, how long
// it took (all retries included) and whether it failed.
type Call struct {
	At       time.Time
	Duration time.Duration
	Failed   bool
}

// Rule decides when a closed breaker opens. It is fed every finished call
// the breaker counts. A Rule is used under the breaker's lock and need not
// be safe for concurrent use.
type Rule interface {
	// Record adds a finished call and reports whether the breaker should open.
	Record(c Call) bool
	// Reason says why the rule trips at now, as in "5 failures in 10s".
	Reason(now time.Time) string
	// Reset forgets everything (the breaker closed again).
	Reset()
	// String describes the rule's setting.
	String() string
}

// Names of the trip rules, as flags and drill files spell them.
const (
	RuleCount       = "count"       // Failures failures within Window
	RuleConsecutive = "consecutive" // Failures failures in a row
	RuleRate        = "rate"        // failure rate ≥ FailureRate over Window, MinSamples calls
	RuleSlowRate    = "slow-rate"   // share of calls slower than SlowCall ≥ SlowRate over Window
	RuleP99         = "p99"         // p99 duration over Window above P99, MinSamples calls
	RuleInFlight    = "in-flight"   // InFlightCalls calls still unanswered after InFlightAge
)

// RuleNames lists the trip rules in documentation order.
func RuleNames() []string {
	return []string{RuleCount, RuleConsecutive, RuleRate, RuleSlowRate, RuleP99, RuleInFlight}
}

// Trip names the trip rules in force and their parameters. The breaker opens
// when any rule says so. Its zero value is the default rule: 5 failures
// within 10 s. Every zero parameter means its documented default.
type Trip struct {
	// Rules lists the rules in force, any combination of RuleNames. Empty
	// means count (or consecutive, when Consecutive is set).
	Rules []string `json:"rules,omitempty"`
	// Consecutive selects the consecutive rule instead of count when Rules
	// is empty (the setting drill had before Rules existed).
	Consecutive bool `json:"consecutive,omitempty"`
	// Failures is the count and consecutive rules' threshold; zero means 5.
	Failures int `json:"failures"`
	// Window is the sliding time window of the count, rate, slow-rate and
	// p99 rules; zero means 10 s.
	Window time.Duration `json:"window_ns,omitempty"`
	// MinSamples is how many calls must have finished within Window before
	// the rate, slow-rate and p99 rules judge; zero means 10.
	MinSamples int `json:"min_samples,omitempty"`
	// FailureRate is the rate rule's threshold, in (0, 1]; zero means 0.5.
	FailureRate float64 `json:"failure_rate,omitempty"`
	// SlowCall is how long a call must take to count as slow (slow-rate);
	// zero means 5 s.
	SlowCall time.Duration `json:"slow_call_ns,omitempty"`
	// SlowRate is the slow-rate rule's threshold, in (0, 1]; zero means 0.5.
	SlowRate float64 `json:"slow_rate,omitempty"`
	// P99 is the p99 rule's threshold; zero means 5 s.
	P99 time.Duration `json:"p99_ns,omitempty"`
	// InFlightAge is how long a call may stay unanswered before the
	// in-flight rule counts it; zero means 5 s.
	InFlightAge time.Duration `json:"in_flight_age_ns,omitempty"`
	// InFlightCalls is how many calls older than InFlightAge open the
	// breaker; zero means 1.
	InFlightCalls int `json:"in_flight_calls,omitempty"`
}

// WithDefaults returns t with every zero parameter set to its default.
func (t Trip) WithDefaults() Trip {
	if len(t.Rules) == 0 {
		if t.Consecutive {
			t.Rules = []string{RuleConsecutive}
		} else {
			t.Rules = []string{RuleCount}
		}
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	if t.Failures <= 0 {
		t.Failures = 5
	}
	if t.MinSamples <= 0 {
		t.MinSamples = 10
	}
	if t.FailureRate <= 0 {
		t.FailureRate = 0.5
	}
	if t.SlowRate <= 0 {
		t.SlowRate = 0.5
	}
	if t.InFlightCalls <= 0 {
		t.InFlightCalls = 1
	}
	def(&t.Window, 10*time.Second)
	def(&t.SlowCall, 5*time.Second)
	def(&t.P99, 5*time.Second)
	def(&t.InFlightAge, 5*time.Second)
	return t
}

// Has reports whether rule name is in force.
func (t Trip) Has(name string) bool { return slices.Contains(t.WithDefaults().Rules, name) }

// Windowed reports whether a rule in force judges over Window (count,
// rate, slow-rate, p99), where consecutive and in-flight do not.
func (t Trip) Windowed() bool {
	return slices.ContainsFunc(t.WithDefaults().Rules, func(name string) bool {
		return name == RuleCount || name == RuleRate || name == RuleSlowRate || name == RuleP99
	})
}

// Validate says what is wrong with t: unknown or repeated rule names (listing
// the valid ones), negative durations or counts, rates outside [0, 1]. Each
// problem is a *SettingError; several are joined.
func (t Trip) Validate() error { return errors.Join(t.validate()...) }

func (t Trip) validate() []error {
	var errs []error
	bad := func(key, format string, a ...any) {
		errs = append(errs, &SettingError{Key: key, Msg: fmt.Sprintf(format, a...)})
	}
	var unknown []string
	seen := map[string]bool{}
	for _, r := range t.Rules {
		if !slices.Contains(RuleNames(), r) {
			unknown = append(unknown, fmt.Sprintf("%q", r))
		} else if seen[r] {
			bad("trip", "rule %q named twice", r)
		}
		seen[r] = true
	}
	switch {
	case len(unknown) > 0:
		bad("trip", "unknown rule %s (valid: %s)", strings.Join(unknown, ", "), strings.Join(RuleNames(), ", "))
	case t.Rules != nil && len(t.Rules) == 0:
		bad("trip", "needs at least one rule (valid: %s)", strings.Join(RuleNames(), ", "))
	}
	for key, n := range map[string]int{"trip_failures": t.Failures, "trip_min_samples": t.MinSamples, "in_flight_calls": t.InFlightCalls} {
		if n < 0 {
			bad(key, "must not be negative, got %d", n)
		}
	}
	for key, d := range map[string]time.Duration{"trip_window": t.Window, "trip_slow_call": t.SlowCall, "trip_p99": t.P99, "in_flight_age": t.InFlightAge} {
		if d < 0 {
			bad(key, "must not be negative, got %s", d)
		}
	}
	for key, r := range map[string]float64{"trip_failure_rate": t.FailureRate, "trip_slow_rate": t.SlowRate} {
		if r < 0 || r > 1 {
			bad(key, "must be above 0 and at most 1 (a share of calls), got %v", r)
		}
	}
	slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return errs
}

// rules builds fresh call rules with their own state. The in-flight rule is
// not a call rule: the breaker runs it on its open tickets.
func (t Trip) rules() []Rule {
	t = t.WithDefaults()
	var rs []Rule
	for _, name := range t.Rules {
		switch name {
		case RuleCount:
			rs = append(rs, &FailuresInWindow{Failures: t.Failures, Window: t.Window})
		case RuleConsecutive:
			rs = append(rs, &Consecutive{Failures: t.Failures})
		case RuleRate:
			rs = append(rs, &FailureRate{Rate: t.FailureRate, Window: t.Window, MinSamples: t.MinSamples})
		case RuleSlowRate:
			rs = append(rs, &SlowCallRate{Slow: t.SlowCall, Rate: t.SlowRate, Window: t.Window, MinSamples: t.MinSamples})
		case RuleP99:
			rs = append(rs, &P99{Threshold: t.P99, Window: t.Window, MinSamples: t.MinSamples})
		}
	}
	return rs
}

// window is a time-ordered sliding window of finished calls, shared by the
// windowed rules. It keeps its counts as calls come and go, so a rule's
// check costs the same at 10 calls a window as at 100,000 (a breaker in
// front of 10,000 emails a second with a 10 s window holds that many).
type window struct {
	span      time.Duration
	slowAt    time.Duration // a call this long or longer is slow, when countSlow
	countSlow bool
	sorted    bool // keep durations, in order
	calls     []Call
	failures  int             // failed calls in calls
	slow      int             // slow calls in calls
	durations []time.Duration // the calls' durations in order, when sorted
}

// add appends c and drops calls that ended at or before c.At - span.
func (w *window) add(c Call) {
	w.calls = append(w.calls, c)
	w.account(c, 1)
	w.trim(c.At)
}

// account adds c's contribution to the counts, times sign.
func (w *window) account(c Call, sign int) {
	if c.Failed {
		w.failures += sign
	}
	if w.countSlow && c.Duration >= w.slowAt {
		w.slow += sign
	}
	if w.sorted {
		i, _ := slices.BinarySearch(w.durations, c.Duration)
		if sign > 0 {
			w.durations = slices.Insert(w.durations, i, c.Duration)
		} else {
			w.durations = slices.Delete(w.durations, i, i+1)
		}
	}
}

// trim drops calls that ended at or before now - span.
func (w *window) trim(now time.Time) {
	cutoff := now.Add(-w.span)
	i := 0
	for i < len(w.calls) && !w.calls[i].At.After(cutoff) {
		w.account(w.calls[i], -1)
		i++
	}
	w.calls = w.calls[i:]
}

// reset empties the window.
func (w *window) reset() {
	w.calls, w.durations, w.failures, w.slow = nil, nil, 0, 0
}

// counts returns the failures and successes in the window at now.
func (w *window) counts(now time.Time) (failures, successes int) {
	w.trim(now)
	return w.failures, len(w.calls) - w.failures
}

// String describes the rules in force with their parameters, joined by
// " or " (any of them opens the breaker), as in "5 failures in 10s or
// in-flight age 4s (1 calls)".
func (t Trip) String() string {
	t = t.WithDefaults()
	var parts []string
	for _, r := range t.rules() {
		parts = append(parts, r.String())
	}
	if t.Has(RuleInFlight) {
		parts = append(parts, fmt.Sprintf("in-flight age %s (%d calls)", format.GoDuration(t.InFlightAge), t.InFlightCalls))
	}
	return strings.Join(parts, " or ")
}
