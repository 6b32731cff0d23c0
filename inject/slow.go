package inject

import (
	"net/http"
	"time"
)

// Slow sends the real answer after an added wait before the response
// headers: Delay plus a uniform draw in [0, Jitter), seeded per attempt.
// To the SDK it is a slow server; only a time limit cuts it.
type Slow struct {
	// Delay is the added wait before the headers. Default 5s.
	Delay time.Duration `json:"delay" yaml:"delay" help:"added wait before the response headers"`
	// Jitter adds up to this much more, drawn per attempt. Default 0.
	Jitter time.Duration `json:"jitter" yaml:"jitter" help:"up to this much more, drawn per attempt"`
}

func init() { register("slow", func() Fault { return &Slow{Delay: 5 * time.Second} }) }

var _ Fault = (*Slow)(nil)

// Apply waits, then lets the request through.
func (s *Slow) Apply(a Attempt) (*http.Response, error) {
	d := s.Delay
	if s.Jitter > 0 && a.Rand != nil {
		d += time.Duration(a.Rand.Int64N(int64(s.Jitter)))
	}
	if err := sleepCtx(a.Req.Context(), d); err != nil {
		closeBody(a.Req)
		return nil, err
	}
	return a.Next.RoundTrip(a.Req)
}
