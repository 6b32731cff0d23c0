package predict

import (
	"math"
	"time"

	"github.com/drill-dev/drill/internal/fakemodel"
)

// latency is what predict assumes of a model's healthy answers: a typical
// fast one, the slowest of the body of the distribution, the slowest at all,
// and the probability that one call is slower than a threshold.
type latency struct {
	fast, slow, slowest time.Duration
	profile             *fakemodel.LatencyProfile
}

// modelLatency returns the built-in profile's figures, or, for a model
// drill does not know (a real endpoint), 0.5–3 s with no tail.
func modelLatency(model string) latency {
	p, ok := fakemodel.Profile(model)
	if !ok {
		return latency{fast: 500 * time.Millisecond, slow: 3 * time.Second, slowest: 3 * time.Second}
	}
	fast := time.Duration(float64(p.Median) * math.Exp(-2*p.Sigma))
	slowest := p.Max
	if p.TailProb > 0 && p.TailMax > slowest {
		slowest = p.TailMax
	}
	return latency{fast: fast, slow: p.Max, slowest: slowest, profile: &p}
}

// pOver is the probability that one healthy attempt takes longer than d.
func (l latency) pOver(d time.Duration) float64 {
	p := l.profile
	if p == nil || d <= 0 {
		return 0
	}
	body := 0.0
	if p.Max == 0 || d < p.Max {
		z := math.Log(float64(d)/float64(p.Median)) / p.Sigma
		body = 0.5 * math.Erfc(z/math.Sqrt2)
	}
	tail := 0.0
	if p.TailProb > 0 {
		switch {
		case d < p.TailMin:
			tail = 1
		case d < p.TailMax:
			tail = float64(p.TailMax-d) / float64(p.TailMax-p.TailMin)
		}
	}
	return (1-p.TailProb)*body + p.TailProb*tail
}

// plausibleCount is how many of m independent calls, each slow with
// probability p, can plausibly be slow: the mean plus two standard
// deviations, rounded up.
func plausibleCount(m int, p float64) int {
	if p <= 0 || m <= 0 {
		return 0
	}
	mean := float64(m) * p
	k := int(math.Ceil(mean + 2*math.Sqrt(mean*(1-p))))
	return min(k, m)
}
