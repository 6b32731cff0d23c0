package proxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/price"
	"github.com/drill-dev/drill/internal/testwait"
	"github.com/drill-dev/drill/scoring"
)

// started is a proxy served on a loopback port, stopped by the test's cleanup.
type started struct {
	p        *Proxy
	addr     string // the listener's HOST:PORT
	url      string // the clients' base URL: http://ADDR/v1
	shutdown func() // stops the server gracefully, once
}

// start serves a proxy with opts on a loopback port until the test ends.
// Without an upstream it uses the fake model in-process, without latency.
func start(t *testing.T, opts Options) started {
	t.Helper()
	if opts.Upstream == nil {
		opts.Upstream, _ = url.Parse("http://fake.invalid/v1")
		opts.Transport = fakemodel.New(fakemodel.Options{NoLatency: true}).Transport()
	}
	p, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, p, Limits{ShutdownGrace: 100 * time.Millisecond}) }()
	var once sync.Once
	shutdown := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Serve: %v", err)
			}
		})
	}
	t.Cleanup(shutdown)
	addr := ln.Addr().String()
	return started{p: p, addr: addr, url: "http://" + addr + "/v1", shutdown: shutdown}
}

// stop ends the proxy (as Ctrl-C would): the server lets requests in
// flight finish first. It returns the whole log.
func (s started) stop() []event.Event {
	s.shutdown() // the server lets requests in flight finish first
	s.p.Close("test over")
	return s.p.Log().Events()
}

func kinds(evs []event.Event, k event.Kind) []event.Event {
	var out []event.Event
	for _, e := range evs {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

func triageParams() openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model: fakemodel.ModelMini,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.SystemMessage("Triage this support email."),
			openai.UserMessage("From: a@example.com\nSubject: Late order\n\nMy order DR-123456 has not arrived.")},
	}
}

// TestBusyWindowGivesTheSDK503sAndItsRetries: inside a busy window the
// client's own SDK sees 503s and retries them itself (twice, openai-go's
// default); every attempt is one request through the proxy, logged with
// the SDK's retry count and the fault.
func TestBusyWindowGivesTheSDK503sAndItsRetries(t *testing.T) {
	s := start(t, Options{Windows: []event.Window{{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 0, To: time.Hour}}})
	c := openai.NewClient(option.WithBaseURL(s.url), option.WithAPIKey("sk-test"))
	_, err := c.Chat.Completions.New(t.Context(), triageParams())
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || apiErr.Code != "overloaded" {
		t.Fatalf("error %v, want the SDK's *openai.Error 503 overloaded", err)
	}
	evs := s.stop()
	starts, faults, ends := kinds(evs, event.AttemptStart), kinds(evs, event.Fault), kinds(evs, event.AttemptEnd)
	if len(starts) != 3 || len(faults) != 3 || len(ends) != 3 {
		t.Fatalf("%d attempts, %d faults, %d ends; want 3 of each (the first try and the SDK's 2 retries)", len(starts), len(faults), len(ends))
	}
	for i, e := range ends {
		if e.Attempt != i || e.Status != 503 || e.Outcome != event.HTTP5xx || e.Model != fakemodel.ModelMini || e.Proxy == nil || e.Proxy.ID != i+1 {
			t.Errorf("attempt_end %d: %+v, want retry %d, 503 http_5xx on %s, request %d", i, e, i, fakemodel.ModelMini, i+1)
		}
		if faults[i].Fault != "busy" || faults[i].Proxy.ID != i+1 {
			t.Errorf("fault %d: %+v, want busy on request %d", i, faults[i], i+1)
		}
	}
}

// TestBusyWindowEndsAndTheSDKsRetryGetsThrough: a window ending while the
// SDK waits to retry: the first attempt gets 503, the retry the answer.
func TestBusyWindowEndsAndTheSDKsRetryGetsThrough(t *testing.T) {
	s := start(t, Options{Windows: []event.Window{{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 0, To: 200 * time.Millisecond}}})
	c := openai.NewClient(option.WithBaseURL(s.url), option.WithAPIKey("sk-test"))
	resp, err := c.Chat.Completions.New(t.Context(), triageParams())
	if err != nil {
		t.Fatalf("the retry after the window did not get through: %v", err)
	}
	if !strings.Contains(resp.Choices[0].Message.Content, "DR-123456") {
		t.Errorf("answer %q does not carry the order number", resp.Choices[0].Message.Content)
	}
	ends := kinds(s.stop(), event.AttemptEnd)
	if len(ends) != 2 || ends[0].Status != 503 || ends[1].Status != 200 || ends[1].Attempt != 1 {
		t.Fatalf("attempts %+v, want a 503 then the SDK's retry 1 answered 200", ends)
	}
	if p := ends[1].Proxy; p.InputTokens == 0 || p.OutputTokens == 0 || p.TTFT <= 0 || p.Wait < p.TTFT {
		t.Errorf("answered attempt's call %+v: want tokens, a time to first token and a wait no shorter", p)
	}
}

// TestHangWindowWaitsForTheClientsTimeLimit: in a hang the client's own
// time limit ends each attempt; with an http.Client timeout openai-go
// retries, so the proxy sees three hung attempts.
func TestHangWindowWaitsForTheClientsTimeLimit(t *testing.T) {
	s := start(t, Options{Windows: []event.Window{{FaultSpec: event.FaultSpec{Kind: "hang"}, From: 0, To: time.Hour}}})
	c := openai.NewClient(option.WithBaseURL(s.url), option.WithAPIKey("sk-test"),
		option.WithHTTPClient(&http.Client{Timeout: 150 * time.Millisecond}))
	if _, err := c.Chat.Completions.New(t.Context(), triageParams()); err == nil {
		t.Fatal("a call through a hang succeeded")
	}
	// The proxy learns that a client hung up when its server notices the
	// closed connection: wait for the three ends.
	testwait.For(t, "three attempt ends", func() bool { return len(kinds(s.p.Log().Events(), event.AttemptEnd)) >= 3 })
	evs := s.stop()
	ends := kinds(evs, event.AttemptEnd)
	if len(ends) != 3 || len(kinds(evs, event.Fault)) != 3 {
		t.Fatalf("%d attempt ends, %d faults; want 3 hung attempts", len(ends), len(kinds(evs, event.Fault)))
	}
	for _, e := range ends {
		if e.Outcome != event.Timeout || e.Status != 0 {
			t.Errorf("hung attempt ended %s status %d (%s), want timeout without status", e.Outcome, e.Status, e.Detail)
		}
	}
}

// TestCloseEndsAHang: closing the proxy ends a request hung with no client
// time limit, logged as cancelled, and the log closes after it.
func TestCloseEndsAHang(t *testing.T) {
	s := start(t, Options{Windows: []event.Window{{FaultSpec: event.FaultSpec{Kind: "hang"}, From: 0, To: -1}}})
	errc := make(chan error, 1)
	go func() {
		resp, err := http.Post(s.url+"/chat/completions", "application/json", strings.NewReader(`{"model":"gpt-5.4-mini"}`))
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	testwait.For(t, "the fault", func() bool { return len(kinds(s.p.Log().Events(), event.Fault)) > 0 })
	s.p.Close("test over")
	evs := s.p.Log().Events()
	<-errc
	ends := kinds(evs, event.AttemptEnd)
	if len(ends) != 1 || ends[0].Outcome != event.Canceled {
		t.Fatalf("ends %+v, want one cancelled attempt", ends)
	}
	if last := evs[len(evs)-1]; last.Kind != event.RunEnd || !s.p.Log().Closed() {
		t.Fatalf("last event %+v, closed %v; want run_end and a closed log", last, s.p.Log().Closed())
	}
}

// sseUpstream streams n chunks of one word each; it sends chunk k+1 only
// after next has been received from, so a proxy that held chunks back
// would never finish.
func sseUpstream(n int, next <-chan struct{}, gap time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		send := func(s string) {
			fmt.Fprintf(w, "data: %s\n\n", s)
			fl.Flush()
		}
		for k := range n {
			if k > 0 {
				select {
				case <-next:
				case <-r.Context().Done():
					return
				}
				time.Sleep(gap)
			}
			send(fmt.Sprintf(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"w%d "},"finish_reason":null}]}`, k))
		}
		send(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":7,"completion_tokens":5,"total_tokens":12}}`)
		send("[DONE]")
	})
}

// TestStreamPassesChunkByChunk: a stream reaches the client's SDK at the
// upstream's pace, one chunk at a time. The upstream sends each chunk only
// once the client has read the one before, so a proxy that buffered would
// deadlock (and fail on the test's deadline). The proxy's record carries the
// time to first token and the usage from the last chunk.
func TestStreamPassesChunkByChunk(t *testing.T) {
	const n, gap = 5, 30 * time.Millisecond
	next := make(chan struct{})
	up := httptest.NewServer(sseUpstream(n, next, gap))
	defer up.Close()
	u, _ := url.Parse(up.URL + "/v1")
	s := start(t, Options{Upstream: u})

	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	c := openai.NewClient(option.WithBaseURL(s.url), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
	stream := c.Chat.Completions.NewStreaming(ctx, triageParams())
	var got []string
	var at []time.Time
	for stream.Next() {
		ch := stream.Current()
		if len(ch.Choices) == 0 {
			continue
		}
		got = append(got, ch.Choices[0].Delta.Content)
		at = append(at, time.Now())
		if len(got) < n {
			select {
			case next <- struct{}{}:
			case <-ctx.Done():
				t.Fatalf("the upstream stopped waiting: %v", ctx.Err())
			}
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatalf("stream: %v (chunks so far %q)", err, got)
	}
	if strings.Join(got, "") != "w0 w1 w2 w3 w4 " {
		t.Fatalf("chunks %q, want w0..w4", got)
	}
	// Each chunk came after the upstream's pause: the stream kept its pace.
	for k := 1; k < n; k++ {
		if d := at[k].Sub(at[k-1]); d < gap {
			t.Errorf("chunk %d came %s after the one before, less than the upstream's %s", k, d, gap)
		}
	}
	ends := kinds(s.stop(), event.AttemptEnd)
	if len(ends) != 1 {
		t.Fatalf("%d attempt ends, want 1", len(ends))
	}
	e := ends[0]
	if e.Outcome != event.OK || !e.Proxy.Stream || e.Proxy.InputTokens != 7 || e.Proxy.OutputTokens != 5 {
		t.Errorf("stream attempt %+v %+v, want ok, stream, 7/5 tokens", e, e.Proxy)
	}
	if e.Proxy.TTFT <= 0 || e.Proxy.Wait < e.Proxy.TTFT+time.Duration(n-1)*gap {
		t.Errorf("ttft %s, wait %s: want the first token well before the end of the stream", e.Proxy.TTFT, e.Proxy.Wait)
	}
}

// TestKeysPassThroughAndAreNeverRecorded: the client's Authorization header
// reaches the upstream untouched; the journal of the proxy's run holds no
// trace of it.
func TestKeysPassThroughAndAreNeverRecorded(t *testing.T) {
	const key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"
	var seen string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Header.Get("Authorization")
		fakemodel.New(fakemodel.Options{NoLatency: true}).ServeHTTP(w, r)
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL + "/v1")
	p, err := New(Options{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	h, _ := journal.NewHeader(map[string]string{"upstream": up.URL}, p.Log().Start())
	jw, err := journal.NewWriter(&buf, h, p.Log(), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	defer srv.Close()
	c := openai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey(key))
	if _, err := c.Chat.Completions.New(t.Context(), triageParams()); err != nil {
		t.Fatal(err)
	}
	p.Close("test over")
	if err := jw.Finish(scoring.Summarize(p.Log().Events()), event.StatusCompleted); err != nil {
		t.Fatal(err)
	}
	if seen != "Bearer "+key {
		t.Errorf("upstream saw Authorization %q, want the client's own", seen)
	}
	if strings.Contains(buf.String(), key[3:20]) || strings.Contains(strings.ToLower(buf.String()), "bearer") {
		t.Fatalf("the journal holds the key:\n%s", buf.String())
	}
	if !strings.Contains(buf.String(), `"kind":"attempt_end"`) {
		t.Fatalf("the journal has no attempt:\n%s", buf.String())
	}
}

func TestRewriteMapsPathsUnderTheUpstreamsBase(t *testing.T) {
	for _, tc := range []struct{ upstream, in, want string }{
		{"https://api.openai.com/v1", "/v1/chat/completions", "https://api.openai.com/v1/chat/completions"},
		{"https://api.openai.com/v1/", "/v1/models", "https://api.openai.com/v1/models"},
		{"https://example.com/openai/v1", "/v1/chat/completions?x=1", "https://example.com/openai/v1/chat/completions?x=1"},
		{"https://example.com/openai/v1", "/health", "https://example.com/health"},
		{"https://example.com/openai/v1", "/v1beta/x", "https://example.com/v1beta/x"},
		{"http://127.0.0.1:8000", "/v1/chat/completions", "http://127.0.0.1:8000/v1/chat/completions"},
		{"https://example.com/v1?api-version=2", "/v1/models", "https://example.com/v1/models?api-version=2"},
	} {
		u, _ := url.Parse(tc.upstream)
		p := &Proxy{upstream: u}
		in := httptest.NewRequest("GET", "http://proxy"+tc.in, nil)
		pr := &httputil.ProxyRequest{In: in, Out: in.Clone(in.Context())}
		p.rewrite(pr)
		if got := pr.Out.URL.String(); got != tc.want {
			t.Errorf("upstream %s, path %s: went to %s, want %s", tc.upstream, tc.in, got, tc.want)
		}
	}
}

// TestBadAnswersAreClassified: a 200 that is not a completion is invalid,
// a 429's Retry-After is recorded, and a body over the limit is refused
// with 413 without reaching the upstream.
func TestBadAnswersAreClassified(t *testing.T) {
	calls := 0
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		switch r.Header.Get("X-Test") {
		case "garbage":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"choices": [ {"mess`)
		case "429":
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(429)
			io.WriteString(w, `{"error":{"message":"slow down","type":"rate_limit","code":"rate_limit_exceeded"}}`)
		}
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL + "/v1")
	s := start(t, Options{Upstream: u, MaxBody: 100})
	post := func(test, body string) int {
		req, _ := http.NewRequest("POST", s.url+"/chat/completions", strings.NewReader(body))
		req.Header.Set("X-Test", test)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	small := `{"model":"m"}`
	if st := post("garbage", small); st != 200 {
		t.Errorf("garbage answer: status %d, want the upstream's 200 passed on", st)
	}
	if st := post("429", small); st != 429 {
		t.Errorf("rate limit: status %d, want 429", st)
	}
	if st := post("big", `{"model":"m","x":"`+strings.Repeat("a", 200)+`"}`); st != 413 {
		t.Errorf("big body: status %d, want 413", st)
	}
	ends := kinds(s.stop(), event.AttemptEnd)
	if len(ends) != 3 {
		t.Fatalf("%d ends, want 3", len(ends))
	}
	if ends[0].Outcome != event.Invalid {
		t.Errorf("garbage 200: outcome %s, want invalid", ends[0].Outcome)
	}
	if ends[1].Outcome != event.HTTP429 || ends[1].RetryAfter != 7*time.Second {
		t.Errorf("429: outcome %s retry-after %s, want http_429 and 7s", ends[1].Outcome, ends[1].RetryAfter)
	}
	if ends[2].Status != 413 || calls != 2 {
		t.Errorf("big body: status %d, upstream calls %d; want 413 and the upstream never called", ends[2].Status, calls)
	}
}

// TestOutageSparesOtherModels: with Models set, only requests naming one of
// them meet the outage; the rest go straight to the upstream.
func TestOutageSparesOtherModels(t *testing.T) {
	s := start(t, Options{Windows: []event.Window{{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 0, To: time.Hour}}, Models: []string{fakemodel.ModelMini}})
	c := openai.NewClient(option.WithBaseURL(s.url), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
	params := triageParams()
	if _, err := c.Chat.Completions.New(t.Context(), params); err == nil {
		t.Error("a request for the broken model got through the busy window")
	}
	params.Model = fakemodel.ModelNano
	if _, err := c.Chat.Completions.New(t.Context(), params); err != nil {
		t.Errorf("a request for a spared model: %v", err)
	}
	evs := s.stop()
	if f := kinds(evs, event.Fault); len(f) != 1 || f[0].Model != fakemodel.ModelMini {
		t.Errorf("faults %+v, want one, on %s", f, fakemodel.ModelMini)
	}
}

// TestOutageByHand: an outage started by hand faults requests until it is
// ended; ending a scheduled window early logs its end once.
func TestOutageByHand(t *testing.T) {
	s := start(t, Options{Windows: []event.Window{{FaultSpec: event.FaultSpec{Kind: "busy"}, From: time.Hour, To: 2 * time.Hour}}})
	status := func() int {
		resp, err := http.Post(s.url+"/chat/completions", "application/json", strings.NewReader(`{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"hi"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if err := s.p.StartOutage("flood"); err == nil || !strings.Contains(err.Error(), "busy, hang") {
		t.Errorf("unknown kind by hand: %v, want an error listing busy, hang", err)
	}
	if s.p.EndOutage() {
		t.Error("EndOutage with no outage reported one")
	}
	if err := s.p.StartOutage("busy"); err != nil {
		t.Fatal(err)
	}
	got := []int{status()}
	if !s.p.EndOutage() {
		t.Error("EndOutage found no outage")
	}
	got = append(got, status())
	if got[0] != 503 || got[1] != 200 {
		t.Errorf("statuses %v, want 503 during the outage by hand and 200 after", got)
	}
	evs := s.stop()
	starts, ends := kinds(evs, event.OutageStart), kinds(evs, event.OutageEnd)
	if len(starts) != 1 || len(ends) != 1 || starts[0].Detail != event.ByHand || ends[0].Detail != event.ByHand {
		t.Errorf("outage events %+v %+v, want one start and one end by hand", starts, ends)
	}
}

// TestEndingAScheduledWindowEarly logs its end once, when ended.
func TestEndingAScheduledWindowEarly(t *testing.T) {
	s := start(t, Options{Windows: []event.Window{{FaultSpec: event.FaultSpec{Kind: "hang"}, From: 0, To: 200 * time.Millisecond}}})
	testwait.For(t, "the scheduled outage to start", func() bool { return len(kinds(s.p.Log().Events(), event.OutageStart)) > 0 })
	if !s.p.EndOutage() {
		t.Fatal("EndOutage found no outage inside the scheduled window")
	}
	// The behaviour under test is what happens when the scheduled end
	// comes: wait, on the proxy's clock, until it is 100 ms past.
	time.Sleep(time.Until(s.p.Log().Start().Add(300 * time.Millisecond)))
	ends := kinds(s.stop(), event.OutageEnd)
	if len(ends) != 1 || ends[0].Detail != event.ByHand {
		t.Errorf("outage ends %+v, want one, by hand", ends)
	}
}

// TestPricesCostEachAnswer: with a price table, an answer's attempt_end
// carries what its tokens cost, and the tally sums it per model.
func TestPricesCostEachAnswer(t *testing.T) {
	s := start(t, Options{Prices: price.Table{fakemodel.ModelMini: {InPerM: 1, OutPerM: 2}}})
	c := openai.NewClient(option.WithBaseURL(s.url), option.WithAPIKey("sk-test"))
	resp, err := c.Chat.Completions.New(t.Context(), triageParams())
	if err != nil {
		t.Fatal(err)
	}
	evs := s.stop()
	e := kinds(evs, event.AttemptEnd)[0]
	want := (float64(resp.Usage.PromptTokens)*1 + float64(resp.Usage.CompletionTokens)*2) / 1e6
	if e.Proxy.Cost != want || want == 0 {
		t.Errorf("cost %v, want %v from the usage the client saw (%d in, %d out)", e.Proxy.Cost, want, resp.Usage.PromptTokens, resp.Usage.CompletionTokens)
	}
	tl := scoring.NewProxyTally()
	for _, e := range evs {
		tl.Add(e)
	}
	if got := tl.Models[fakemodel.ModelMini].Cost; got != want {
		t.Errorf("tally cost %v, want %v", got, want)
	}
}
