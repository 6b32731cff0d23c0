package inject

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/internal/fakemodel"
)

// TestTrickleOverALoopbackSocket: over a real socket, http.Client.Timeout
// still covers reading the body: a trickled stream is cut at the limit
// after one attempt. (The fake-time tests use the in-process transport.)
func TestTrickleOverALoopbackSocket(t *testing.T) {
	srv := httptest.NewServer(fakemodel.New(fakemodel.Options{Seed: 1, NoLatency: true}))
	defer srv.Close()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	// A first call warms the server (its token counter loads on first
	// use), so the limit below measures the trickle alone.
	warm := openai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("k"), option.WithHTTPClient(&http.Client{Transport: tr}))
	if res := streamCall(t.Context(), warm, email(0)); res.err != nil {
		t.Fatal(res.err)
	}
	in := New(tr, time.Now(), Options{})
	if err := in.Add(parse(t, "trickle", "tokens_per_s=2")); err != nil {
		t.Fatal(err)
	}
	attempts := &counting{next: in}
	c := openai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("k"), option.WithMaxRetries(2),
		option.WithHTTPClient(&http.Client{Transport: attempts, Timeout: 500 * time.Millisecond}))
	start := time.Now()
	res := streamCall(t.Context(), c, email(0))
	var ne net.Error
	if !errors.As(res.err, &ne) || !ne.Timeout() {
		t.Fatalf("error %v, want a client timeout", res.err)
	}
	if took := time.Since(start); took < 500*time.Millisecond || attempts.n != 1 {
		t.Errorf("cut after %s and %d attempts, want at the 500ms limit after 1", took, attempts.n)
	}
}
