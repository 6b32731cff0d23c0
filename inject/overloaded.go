package inject

import (
	"fmt"
	"net/http"
	"time"
)

// Overloaded is a provider refusing work because it is overloaded, the
// chat workload's "refused call": a 529 (default, the status some providers
// send for overload) or a 503, with an "overloaded" error body, at once,
// without calling the model. The SDK retries both (5xx), honouring
// RetryAfter when it is set.
type Overloaded struct {
	// Status is the HTTP status: 529 (default) or 503.
	Status int `json:"status" yaml:"status" help:"HTTP status: 529 or 503"`
	// RetryAfter, if above 0, is sent as the Retry-After-Ms and
	// Retry-After headers (whole seconds, rounded up). Default 0: none.
	RetryAfter time.Duration `json:"retry_after" yaml:"retry_after" help:"Retry-After sent with the refusal (0: none)"`
}

func init() {
	registerChat("overloaded", func() Fault { return &Overloaded{Status: 529} })
}

var _ Fault = (*Overloaded)(nil)

func (o *Overloaded) validate() error {
	if o.Status != 529 && o.Status != http.StatusServiceUnavailable {
		return fmt.Errorf("bad value %d for status: want 529 or 503", o.Status)
	}
	return nil
}

// Apply refuses the attempt with the status at once.
func (o *Overloaded) Apply(a Attempt) (*http.Response, error) {
	closeBody(a.Req)
	var h http.Header
	if o.RetryAfter > 0 {
		h = http.Header{}
		setRetryAfter(h, o.RetryAfter)
	}
	return jsonResponse(a.Req, o.Status, h, busyBodies[o.Status]), nil
}
