package inject

import "net/http"

// hang picks up and says nothing: no response, ever, until the attempt's
// context ends (a client time limit, a request timeout, or the run's end).
type hang struct{}

func init() { register("hang", hang{}) }

func (hang) Apply(req *http.Request, _ http.RoundTripper) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	<-req.Context().Done()
	return nil, req.Context().Err()
}
