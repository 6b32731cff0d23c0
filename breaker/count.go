package breaker

import (
	"fmt"
	"time"

	"github.com/drill-dev/drill/internal/format"
)

// FailuresInWindow is the count rule: it opens after Failures failed calls
// within a sliding Window of time (resilience4j's time-based window,
// counting failures only). It is drill's default rule.
type FailuresInWindow struct {
	Failures int
	Window   time.Duration

	w window
}

var _ Rule = (*FailuresInWindow)(nil)

// Record implements Rule.
func (r *FailuresInWindow) Record(c Call) bool {
	r.w.span = r.Window
	r.w.add(c)
	f, _ := r.w.counts(c.At)
	return c.Failed && f >= r.Failures
}

// Reason implements Rule.
func (r *FailuresInWindow) Reason(now time.Time) string {
	f, _ := r.w.counts(now)
	return fmt.Sprintf("%s: %d failures", r, f)
}

// Reset implements Rule.
func (r *FailuresInWindow) Reset() { r.w.reset() }

// String describes the rule.
func (r *FailuresInWindow) String() string {
	return fmt.Sprintf("%d failures in %s", r.Failures, format.GoDuration(r.Window))
}
