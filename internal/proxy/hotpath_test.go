package proxy

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
)

// TestUpstreamConnectionsAreKept: a burst of concurrent requests leaves its
// connections to the upstream open for the next burst, so a proxy under an
// open-loop load does not dial (and leave in TIME_WAIT) a connection per
// request past the second.
func TestUpstreamConnectionsAreKept(t *testing.T) {
	const n = 32
	var dials atomic.Int64
	var arrived sync.WaitGroup
	up := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		arrived.Done()
		arrived.Wait() // every request of the burst in flight at once
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"choices":[{"message":{"content":"ok"}}]}`)
	}))
	up.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			dials.Add(1)
		}
	}
	up.Start()
	defer up.Close()
	u, _ := url.Parse(up.URL + "/v1")
	s := start(t, Options{Upstream: u})
	tr := &http.Transport{MaxIdleConnsPerHost: n}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	burst := func() {
		arrived.Add(n)
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				resp, err := client.Post(s.url+"/chat/completions", "application/json", bytes.NewReader([]byte(`{"model":"m"}`)))
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			})
		}
		wg.Wait()
	}
	burst()
	first := dials.Load()
	burst()
	burst()
	if again := dials.Load() - first; again > 2 {
		t.Errorf("the proxy dialled %d new upstream connections for two more bursts of %d (%d for the first): want them reused", again, n, first)
	}
}
