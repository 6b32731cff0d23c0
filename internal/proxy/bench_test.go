package proxy

import (
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/internal/fakemodel"
)

// BenchmarkProxyOverhead measures what the proxy adds to a call: openai-go
// over loopback to the fake model (no latency) directly, and through the
// proxy (itself over loopback, in front of the fake model over loopback),
// non-streamed and streamed. The difference in ns/op is the proxy's cost.
func BenchmarkProxyOverhead(b *testing.B) {
	model := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true}))
	defer model.Close()
	u, err := url.Parse(model.URL + "/v1")
	if err != nil {
		b.Fatal(err)
	}
	p, err := New(Options{Upstream: u})
	if err != nil {
		b.Fatal(err)
	}
	front := httptest.NewServer(p)
	defer front.Close()
	defer p.Close("benchmark over")
	// Nobody reads the proxy's log here; it grows with every request, as
	// it does in a real proxy run.
	for _, tc := range []struct{ name, base string }{{"direct", model.URL + "/v1"}, {"proxy", front.URL + "/v1"}} {
		c := openai.NewClient(option.WithBaseURL(tc.base), option.WithAPIKey("sk-bench"), option.WithMaxRetries(0))
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.Chat.Completions.New(b.Context(), triageParams()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"-stream", func(b *testing.B) {
			for b.Loop() {
				s := c.Chat.Completions.NewStreaming(b.Context(), triageParams())
				for s.Next() {
				}
				if err := s.Err(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
