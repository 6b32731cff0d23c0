package breaker

import (
	"fmt"
	"time"

	"github.com/drill-dev/drill/internal/format"
)

// SlowCallRate is the slow-rate rule (resilience4j's slow-call rate): it
// opens when the share of calls that took at least Slow, failed or not,
// among those that finished within Window reaches Rate, once at least
// MinSamples calls finished within it.
type SlowCallRate struct {
	Slow       time.Duration
	Rate       float64
	Window     time.Duration
	MinSamples int

	w window
}

var _ Rule = (*SlowCallRate)(nil)

// Record implements Rule.
func (r *SlowCallRate) Record(c Call) bool {
	r.w.span, r.w.slowAt, r.w.countSlow = r.Window, r.Slow, true
	r.w.add(c)
	slow, n := r.w.slow, len(r.w.calls)
	return n >= r.MinSamples && float64(slow)/float64(n) >= r.Rate
}

// Reason implements Rule.
func (r *SlowCallRate) Reason(now time.Time) string {
	r.w.trim(now)
	slow, n := r.w.slow, len(r.w.calls)
	return fmt.Sprintf("%s: %d of %d calls slow", r, slow, n)
}

// Reset implements Rule.
func (r *SlowCallRate) Reset() { r.w.reset() }

// String describes the rule.
func (r *SlowCallRate) String() string {
	return fmt.Sprintf("calls ≥ %s at rate ≥ %g in %s (min %d calls)", format.GoDuration(r.Slow), r.Rate, format.GoDuration(r.Window), r.MinSamples)
}
