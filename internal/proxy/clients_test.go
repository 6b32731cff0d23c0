package proxy

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/scoring"
)

// send posts a chat completion to the proxy with headers, as an SDK would
// on its retry-th attempt.
func send(t *testing.T, base string, headers map[string]string, retry int) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/chat/completions",
		strings.NewReader(`{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"ping"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("X-Stainless-Retry-Count", strconv.Itoa(retry))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// A Node client and a Python client through one proxy at once, in a 429
// storm with Retry-After 90 s: the proxy records each request's SDK, and
// its summary names both clients, predicts each from its SDK's profile
// (the npm package ignores the hint, openai-python honours it) and shows
// what each did beside it.
func TestProxyNamesAndPredictsEachClient(t *testing.T) {
	s := start(t, Options{Windows: []event.Window{{FaultSpec: event.FaultSpec{Kind: "rate-limit",
		Params: map[string]string{"retry_after": "90s"}}, From: 0, To: time.Hour}}})
	node := map[string]string{"X-Stainless-Lang": "js", "X-Stainless-Package-Version": "7.60.0", "User-Agent": "OpenAI/JS 7.60.0"}
	python := map[string]string{"X-Stainless-Lang": "python", "X-Stainless-Package-Version": "2.54.0",
		"User-Agent": "OpenAI/Python 2.54.0", "X-Stainless-Read-Timeout": "600.0"}
	var wg sync.WaitGroup
	wg.Go(func() {
		for retry := range 3 { // the npm package's own backoff: 3 attempts at once
			if st := send(t, s.url, node, retry); st != http.StatusTooManyRequests {
				t.Errorf("node attempt %d: status %d", retry, st)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	wg.Go(func() {
		if st := send(t, s.url, python, 0); st != http.StatusTooManyRequests { // then it waits the 90 s
			t.Errorf("python: status %d", st)
		}
	})
	wg.Wait()
	evs := s.stop()

	sdks := map[string]int{}
	for _, e := range evs {
		if e.Kind == event.AttemptStart && e.Proxy != nil {
			sdks[e.Proxy.SDK+" "+e.Proxy.SDKVersion]++
		}
	}
	if sdks["openai-node 7.60.0"] != 3 || sdks["openai-python 2.54.0"] != 1 {
		t.Errorf("attempt_start SDKs: %v", sdks)
	}
	tally := scoring.NewProxyTally()
	for _, e := range evs {
		tally.Add(e)
	}
	var out bytes.Buffer
	plain.ProxySummary(&out, tally)
	text := out.String()
	for _, want := range []string{
		"clients:\n  openai-node 7.60.0\n",
		"predicted (rate-limit retry_after=1m30s spend_cap=false): ignores your Retry-After of 90 s (over its 60 s cap) and retries after 0.5 s and 1 s",
		"did: 1 call, 2 retries (after ",
		"  openai-python 2.54.0\n",
		"predicted (rate-limit retry_after=1m30s spend_cap=false): honours your Retry-After of 90 s and retries after 90 s and 90 s",
		"did: 1 call, 0 retries, 1 failed (http_429 1)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the summary lacks %q:\n%s", want, text)
		}
	}
	if py := tally.Clients["openai-python 2.54.0"]; py == nil || py.Timeout != 600*time.Second {
		t.Errorf("python's declared read timeout: %+v", py)
	}
}
