//go:build !race

// The race detector allocates on its own: this file's counts hold without
// it (.ci/run runs them so).

package proxy

import (
	"bytes"
	"io"
	"net/http"
	"runtime"
	"testing"
)

// TestProxiedRequestAllocations: a request through the proxy allocates no
// per-response copy buffer (32 KiB in httputil.ReverseProxy by default):
// the proxy and the in-process fake model together stay under 32 KiB a
// request.
func TestProxiedRequestAllocations(t *testing.T) {
	s := start(t, Options{})
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	body := []byte(`{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"Where is my order DR-123456?"}]}`)
	call := func() {
		resp, err := client.Post(s.url+"/chat/completions", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d", resp.StatusCode)
		}
	}
	for range 20 {
		call()
	}
	const n = 200
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for range n {
		call()
	}
	runtime.ReadMemStats(&m1)
	per := (m1.TotalAlloc - m0.TotalAlloc) / n
	t.Logf("%d bytes allocated a request (client, proxy, fake model)", per)
	if per >= 32<<10 {
		t.Errorf("%d bytes allocated a request: want under 32 KiB", per)
	}
}
