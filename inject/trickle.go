package inject

import (
	"bytes"
	"fmt"
	"net/http"
	"time"

	"github.com/drill-dev/drill/internal/sse"
)

// Trickle sends status 200 and the real answer, slowly: a stream's events
// are held so their content arrives at TokensPerS; a body that is not a
// stream is released a token's worth (4 bytes) at a time at the same pace.
// The headers come at the model's speed, so only a limit that covers
// reading the body cuts it (in Go, http.Client.Timeout does).
//
// With Seconds set the answer lasts that long whatever its length, as an
// incident's slow call does ("a slow call takes about 150 s"): its chunks
// come at TokensPerS, the end of the answer (a stream's [DONE], or the
// body's end) is held until Seconds after the headers, and an answer too
// long to fit comes at TokensPerS until then and the rest at once. Spread
// draws each attempt's duration uniformly from Seconds ± Spread.
type Trickle struct {
	// TokensPerS is the pace of the answer. Default 2.
	TokensPerS float64 `json:"tokens_per_s" yaml:"tokens_per_s" help:"tokens a second (a token is 4 bytes of body when not streamed)"`
	// Seconds is how long the answer lasts, whatever its length; 0: as
	// long as its tokens take at TokensPerS.
	Seconds float64 `json:"seconds" yaml:"seconds" help:"how long the answer lasts whatever its length, in seconds (0: its tokens at tokens_per_s)"`
	// Spread makes each attempt's duration a uniform draw from Seconds ±
	// Spread (seeded by the attempt).
	Spread float64 `json:"spread" yaml:"spread" help:"each attempt lasts seconds ± spread, drawn uniformly (needs seconds)"`
}

func init() { register("trickle", func() Fault { return &Trickle{TokensPerS: 2} }) }

var _ Fault = (*Trickle)(nil)

func (t *Trickle) validate() error {
	switch {
	case !(t.TokensPerS > 0):
		return fmt.Errorf("bad value %v for tokens_per_s: want a number above 0", t.TokensPerS)
	case t.Seconds < 0:
		return fmt.Errorf("bad value %v for seconds: want 0 (off) or more", t.Seconds)
	case t.Spread < 0 || t.Spread > t.Seconds:
		return fmt.Errorf("bad value %v for spread: want 0 to seconds (%v)", t.Spread, t.Seconds)
	}
	return nil
}

// duration is how long one attempt's answer lasts: Seconds ± Spread drawn
// from the attempt's random source; 0 when Seconds is off.
func (t *Trickle) duration(a Attempt) time.Duration {
	s := t.Seconds
	if t.Spread > 0 && a.Rand != nil {
		s += (2*a.Rand.Float64() - 1) * t.Spread
	}
	return time.Duration(s * float64(time.Second))
}

// Apply lets the request through and paces the answer's body.
func (t *Trickle) Apply(a Attempt) (*http.Response, error) {
	resp, err := a.Next.RoundTrip(a.Req)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	perToken := time.Duration(float64(time.Second) / t.TokensPerS)
	b := newHeldBody(a.Req, resp)
	b.gate = func(tokens int) time.Duration { return time.Duration(tokens) * perToken }
	if d := t.duration(a); d > 0 {
		end := time.Now().Add(d)
		b.gate = func(tokens int) time.Duration { return min(time.Duration(tokens)*perToken, time.Until(end)) }
		b.hold = func(chunk []byte) time.Duration {
			if chunk == nil || isDone(chunk) {
				return time.Until(end)
			}
			return 0
		}
	}
	resp.Body, resp.ContentLength = b, -1
	resp.Header.Del("Content-Length")
	return resp, nil
}

// isDone reports whether a stream's event is its last, data: [DONE].
func isDone(raw []byte) bool {
	for _, d := range (sse.Event{Raw: raw}).Data() {
		if bytes.Equal(d, sse.Done) {
			return true
		}
	}
	return false
}
