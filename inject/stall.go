package inject

import (
	"fmt"
	"net/http"
)

// Stall sends status 200, the headers and the first AfterChunks chunks of
// the real answer (server-sent events when streamed, 4-byte pieces
// otherwise), then nothing until the attempt's context ends: a stream that
// stops mid-answer. A body shorter than that arrives whole.
type Stall struct {
	// AfterChunks is how many chunks pass before the silence. Default 3.
	AfterChunks int `json:"after_chunks" yaml:"after_chunks" help:"chunks sent before the silence (events when streamed, 4-byte pieces otherwise)"`
}

func init() { register("stall", func() Fault { return &Stall{AfterChunks: 3} }) }

var _ Fault = (*Stall)(nil)

func (s *Stall) validate() error {
	if s.AfterChunks < 0 {
		return fmt.Errorf("bad value %d for after_chunks: want 0 or more", s.AfterChunks)
	}
	return nil
}

// Apply lets the request through and stalls the answer's body.
func (s *Stall) Apply(a Attempt) (*http.Response, error) {
	resp, err := a.Next.RoundTrip(a.Req)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	b := newHeldBody(a.Req, resp)
	b.limit, b.then = s.AfterChunks, silence
	resp.Body, resp.ContentLength = b, -1
	resp.Header.Del("Content-Length")
	return resp, nil
}
