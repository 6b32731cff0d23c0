package breaker

import (
	"fmt"
	"time"
)

// Trip names a trip rule and its parameters. Its zero value is the default
// rule: 5 failures within 10 s.
type Trip struct {
	// Consecutive selects the consecutive-failures rule instead of the
	// time window: Failures failures in a row open the breaker.
	Consecutive bool `json:"consecutive,omitempty"`
	// Failures is how many failures open the breaker; zero means 5.
	Failures int `json:"failures"`
	// Window is the sliding time window failures are counted in; zero
	// means 10 s. Unused by the consecutive rule.
	Window time.Duration `json:"window_ns,omitempty"`
}

// rule builds a fresh rule with its own state.
func (t Trip) rule() Rule {
	if t.Failures <= 0 {
		t.Failures = 5
	}
	if t.Consecutive {
		return &Consecutive{Failures: t.Failures}
	}
	if t.Window <= 0 {
		t.Window = 10 * time.Second
	}
	return &FailuresInWindow{Failures: t.Failures, Window: t.Window}
}

// Rule decides when a closed breaker opens. A Rule is used under the
// breaker's lock and need not be safe for concurrent use.
type Rule interface {
	// Failure records a failure at now and reports whether the breaker should open.
	Failure(now time.Time) bool
	// Success records a success at now.
	Success(now time.Time)
	// Counts returns the failures and successes the rule holds at now.
	Counts(now time.Time) (failures, successes int)
	// Reset forgets everything (the breaker closed again).
	Reset()
	// String describes the rule, as in "5 failures in 10s".
	String() string
}

// FailuresInWindow opens after Failures failed calls within a sliding Window
// of time (resilience4j's time-based window, counting failures only).
type FailuresInWindow struct {
	Failures int
	Window   time.Duration

	failures  []time.Time
	successes []time.Time
}

// Failure implements Rule.
func (r *FailuresInWindow) Failure(now time.Time) bool {
	r.failures = append(trim(r.failures, now.Add(-r.Window)), now)
	return len(r.failures) >= r.Failures
}

// Success implements Rule.
func (r *FailuresInWindow) Success(now time.Time) {
	r.successes = append(trim(r.successes, now.Add(-r.Window)), now)
}

// Counts implements Rule.
func (r *FailuresInWindow) Counts(now time.Time) (int, int) {
	r.failures = trim(r.failures, now.Add(-r.Window))
	r.successes = trim(r.successes, now.Add(-r.Window))
	return len(r.failures), len(r.successes)
}

// Reset implements Rule.
func (r *FailuresInWindow) Reset() { r.failures, r.successes = nil, nil }

// String describes the rule.
func (r *FailuresInWindow) String() string {
	return fmt.Sprintf("%d failures in %s", r.Failures, r.Window)
}

// trim drops times at or before cutoff; times are in order.
func trim(ts []time.Time, cutoff time.Time) []time.Time {
	i := 0
	for i < len(ts) && !ts[i].After(cutoff) {
		i++
	}
	return ts[i:]
}

// Consecutive opens after Failures failures in a row; a success resets the
// count (the simple breaker of the "Circuit Breakers, Timeouts & Fallbacks"
// lesson).
type Consecutive struct {
	Failures int

	run int
}

// Failure implements Rule.
func (r *Consecutive) Failure(time.Time) bool { r.run++; return r.run >= r.Failures }

// Success implements Rule.
func (r *Consecutive) Success(time.Time) { r.run = 0 }

// Counts implements Rule.
func (r *Consecutive) Counts(time.Time) (int, int) { return r.run, 0 }

// Reset implements Rule.
func (r *Consecutive) Reset() { r.run = 0 }

// String describes the rule.
func (r *Consecutive) String() string { return fmt.Sprintf("%d consecutive failures", r.Failures) }
