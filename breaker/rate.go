package breaker

import (
	"fmt"
	"time"

	"github.com/drill-dev/drill/internal/format"
)

// FailureRate is the rate rule: it opens when the share of failed calls
// among those that finished within Window reaches Rate, once at least
// MinSamples calls finished within it (resilience4j's failure-rate
// threshold with a minimum number of calls).
type FailureRate struct {
	Rate       float64
	Window     time.Duration
	MinSamples int

	w window
}

var _ Rule = (*FailureRate)(nil)

// Record implements Rule.
func (r *FailureRate) Record(c Call) bool {
	r.w.span = r.Window
	r.w.add(c)
	f, s := r.w.counts(c.At)
	n := f + s
	return n >= r.MinSamples && float64(f)/float64(n) >= r.Rate
}

// Reason implements Rule.
func (r *FailureRate) Reason(now time.Time) string {
	f, s := r.w.counts(now)
	return fmt.Sprintf("%s: %d of %d calls failed", r, f, f+s)
}

// Reset implements Rule.
func (r *FailureRate) Reset() { r.w.reset() }

// String describes the rule.
func (r *FailureRate) String() string {
	return fmt.Sprintf("failure rate ≥ %g in %s (min %d calls)", r.Rate, format.GoDuration(r.Window), r.MinSamples)
}
