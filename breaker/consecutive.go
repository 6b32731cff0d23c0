package breaker

import (
	"fmt"
	"time"
)

// Consecutive is the consecutive rule: it opens after Failures failures in a
// row; a success resets the run (the simple breaker of the "Circuit
// Breakers, Timeouts & Fallbacks" lesson).
type Consecutive struct {
	Failures int

	run int
}

var _ Rule = (*Consecutive)(nil)

// Record implements Rule.
func (r *Consecutive) Record(c Call) bool {
	if !c.Failed {
		r.run = 0
		return false
	}
	r.run++
	return r.run >= r.Failures
}

// Reason implements Rule.
func (r *Consecutive) Reason(time.Time) string { return fmt.Sprintf("%d failures in a row", r.run) }

// Reset implements Rule.
func (r *Consecutive) Reset() { r.run = 0 }

// String describes the rule.
func (r *Consecutive) String() string { return fmt.Sprintf("%d consecutive failures", r.Failures) }
