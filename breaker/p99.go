package breaker

import (
	"fmt"
	"time"

	"github.com/drill-dev/drill/internal/format"
)

// P99 is the p99 rule (seed 001's latency trip): it opens when the 99th
// percentile duration of the calls that finished within Window, failed or
// not, is above Threshold, once at least MinSamples calls finished within
// it. The percentile is the nearest rank: with fewer than 100 calls it is
// the slowest call.
type P99 struct {
	Threshold  time.Duration
	Window     time.Duration
	MinSamples int

	w window
}

var _ Rule = (*P99)(nil)

// Record implements Rule.
func (r *P99) Record(c Call) bool {
	r.w.span, r.w.sorted = r.Window, true
	r.w.add(c)
	return len(r.w.calls) >= r.MinSamples && r.p99() > r.Threshold
}

// p99 is the nearest-rank 99th percentile of the window's durations.
func (r *P99) p99() time.Duration {
	if len(r.w.calls) == 0 {
		return 0
	}
	ds := r.w.durations
	rank := (99*len(ds) + 99) / 100 // ceil(0.99 n), 1-based
	return ds[rank-1]
}

// Reason implements Rule.
func (r *P99) Reason(now time.Time) string {
	r.w.trim(now)
	return fmt.Sprintf("%s: p99 %s over %d calls", r, r.p99().Round(time.Millisecond), len(r.w.calls))
}

// Reset implements Rule.
func (r *P99) Reset() { r.w.reset() }

// String describes the rule.
func (r *P99) String() string {
	return fmt.Sprintf("p99 > %s in %s (min %d calls)", format.GoDuration(r.Threshold), format.GoDuration(r.Window), r.MinSamples)
}
