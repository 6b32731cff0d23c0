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
	r.w.span = r.Window
	r.w.add(c)
	slow, n := r.count()
	return n >= r.MinSamples && float64(slow)/float64(n) >= r.Rate
}

func (r *SlowCallRate) count() (slow, n int) {
	for _, c := range r.w.calls {
		if c.Duration >= r.Slow {
			slow++
		}
	}
	return slow, len(r.w.calls)
}

// Reason implements Rule.
func (r *SlowCallRate) Reason(now time.Time) string {
	r.w.trim(now)
	slow, n := r.count()
	return fmt.Sprintf("%s: %d of %d calls slow", r, slow, n)
}

// Reset implements Rule.
func (r *SlowCallRate) Reset() { r.w.calls = nil }

// String describes the rule.
func (r *SlowCallRate) String() string {
	return fmt.Sprintf("calls ≥ %s at rate ≥ %g in %s (min %d calls)", format.GoDuration(r.Slow), r.Rate, format.GoDuration(r.Window), r.MinSamples)
}
