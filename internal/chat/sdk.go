package chat

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// Defaults are openai-go's own limits on one call, as the linked SDK
// applies them when a client sets none.
type Defaults struct {
	// Retries is how many times the SDK retries a failed attempt.
	Retries int
	// RequestTimeout is its time limit on a call; 0: none (a hang waits
	// forever).
	RequestTimeout time.Duration
}

var (
	sdkOnce     sync.Once
	sdkDefaults Defaults
)

// SDKDefaults reads the linked openai-go's defaults by asking it: one call
// with no options against a transport that answers every attempt with a
// retryable 503 and a zero Retry-After-Ms (so no backoff is waited), whose
// attempts are counted and whose context's deadline is looked at. Measured
// once per process; it sends nothing over the network.
func SDKDefaults() Defaults {
	sdkOnce.Do(func() {
		var p probeTransport
		client := openai.NewClient(option.WithBaseURL("http://sdk-defaults.invalid/v1"), option.WithAPIKey("probe"),
			option.WithHTTPClient(&http.Client{Transport: &p}))
		_, _ = client.Models.Get(context.Background(), "probe")
		sdkDefaults = Defaults{Retries: max(p.attempts-1, 0), RequestTimeout: p.timeout}
	})
	return sdkDefaults
}

// probeTransport answers every attempt with a 503 to be retried at once.
type probeTransport struct {
	mu       sync.Mutex
	attempts int
	timeout  time.Duration
}

// RoundTrip counts the attempt and refuses it.
func (p *probeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	p.mu.Lock()
	p.attempts++
	if d, ok := req.Context().Deadline(); ok && p.timeout == 0 {
		p.timeout = time.Until(d).Round(time.Second)
	}
	p.mu.Unlock()
	if req.Body != nil {
		req.Body.Close()
	}
	h := http.Header{"Content-Type": {"application/json"}, "Retry-After-Ms": {"0"}}
	return &http.Response{StatusCode: http.StatusServiceUnavailable, Header: h, Request: req,
		Body: io.NopCloser(strings.NewReader(`{"error":{"message":"probe","type":"server_error"}}`))}, nil
}
