package inject

import (
	"fmt"
	"net/http"
	"time"
)

// Trickle sends status 200 and the real answer, slowly: a stream's events
// are held so their content arrives at TokensPerS; a body that is not a
// stream is released a token's worth (4 bytes) at a time at the same pace.
// The headers come at the model's speed, so only a limit that covers
// reading the body cuts it (in Go, http.Client.Timeout does).
type Trickle struct {
	// TokensPerS is the pace of the answer. Default 2.
	TokensPerS float64 `json:"tokens_per_s" yaml:"tokens_per_s" help:"tokens a second (a token is 4 bytes of body when not streamed)"`
}

func init() { register("trickle", func() Fault { return &Trickle{TokensPerS: 2} }) }

var _ Fault = (*Trickle)(nil)

func (t *Trickle) validate() error {
	if !(t.TokensPerS > 0) {
		return fmt.Errorf("bad value %v for tokens_per_s: want a number above 0", t.TokensPerS)
	}
	return nil
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
	resp.Body, resp.ContentLength = b, -1
	resp.Header.Del("Content-Length")
	return resp, nil
}
