package inject

import "net/http"

// Hang picks up and says nothing: no response, ever, until the attempt's
// context ends (a client time limit, a request timeout, or the run's end).
// It has no parameters.
type Hang struct{}

func init() { register("hang", func() Fault { return &Hang{} }) }

var _ Fault = (*Hang)(nil)

// Apply waits for the attempt's context to end.
func (*Hang) Apply(a Attempt) (*http.Response, error) {
	closeBody(a.Req)
	<-a.Req.Context().Done()
	return nil, a.Req.Context().Err()
}
