package session

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/proxy"
	"github.com/drill-dev/drill/scoring"
)

// TestProxyReleasesTheLog: drill proxy without the dashboard keeps only the
// events its readers have not read yet, however many requests it serves,
// and the summary it returns is the fold of every event. (With the
// dashboard, which may go back in the run, the log keeps every event, as
// before.)
func TestProxyReleasesTheLog(t *testing.T) {
	scale := 0.0
	cfg := ProxyConfig{LatencyScale: &scale}
	popts, _, err := upstreamOptions(t.Context(), &cfg, ProxyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := proxy.New(popts)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "p.jsonl")
	rec, err := recordProxy(cfg, p, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(t.Context())
	var out bytes.Buffer
	type result struct {
		tally   *scoring.ProxyTally
		summary scoring.Summary
		err     error
	}
	done := make(chan result, 1)
	go func() {
		tally, summary, err := serveProxy(ctx, ln, p, proxy.Limits{}, ProxyOptions{Out: &out}, "", "")
		done <- result{tally, summary, err}
	}()
	const requests = 5000 // two events each: over two chunks (4,096 events) of the log
	sendRequests(t, "http://"+ln.Addr().String()+"/v1/chat/completions", requests, 16)
	stop()
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	held, n := p.Log().Held(), p.Log().Len()
	t.Logf("%d requests: %d events, %d held", requests, n, held)
	if n <= 2*4096 {
		t.Fatalf("%d events: too few to fill two chunks of the log", n)
	}
	if held > n/2 {
		t.Errorf("the log holds %d of %d events, want it to have released most", held, n)
	}
	if r.tally.Requests != requests {
		t.Errorf("tally: %d requests, want %d", r.tally.Requests, requests)
	}
	if got := strings.Count(out.String(), "\n"); got < requests {
		t.Errorf("%d lines written, want one a request (%d)", got, requests)
	}
	if err := rec.Finish(r.summary, "completed"); err != nil {
		t.Fatal(err)
	}
	folded, _, err := journal.Summarize(path)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(r.summary)
	want, _ := json.Marshal(folded)
	if !bytes.Equal(got, want) {
		t.Errorf("the summary served is\n%s\nwant the fold of every event the journal holds\n%s", got, want)
	}
}

// sendRequests posts n chat completions to url from workers at once,
// failing the test on any that does not come back 200.
func sendRequests(t *testing.T, url string, n, workers int) {
	t.Helper()
	body := `{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"Where is my order 1234? It has not arrived."}]}`
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed []string
	for range workers {
		wg.Go(func() {
			for range jobs {
				resp, err := http.Post(url, "application/json", strings.NewReader(body))
				if err != nil {
					mu.Lock()
					failed = append(failed, err.Error())
					mu.Unlock()
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					mu.Lock()
					failed = append(failed, resp.Status)
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if len(failed) > 0 {
		t.Fatalf("%d of %d requests failed, first: %s", len(failed), n, failed[0])
	}
}
