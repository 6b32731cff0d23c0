package replayfault_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/proxy"
	"github.com/drill-dev/drill/internal/replayfault"
	"github.com/drill-dev/drill/scoring"
)

const (
	period = 600 * time.Millisecond // the flapping server is up for half of each period, then answers 503
	runFor = 2 * time.Second
)

// flapping is a model that answers 503 in the second half of every period
// from start.
func flapping(start time.Time) http.Handler {
	model := fakemodel.New(fakemodel.Options{NoLatency: true})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if time.Since(start)%period >= period/2 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"error":{"message":"The server is overloaded or not ready yet.","type":"server_error","code":"overloaded"}}`)
			return
		}
		model.ServeHTTP(w, r)
	})
}

// truth is the flapping server's fault pattern over runFor.
func truth() []replayfault.Window {
	var ws []replayfault.Window
	for from := period / 2; from < runFor; from += period {
		ws = append(ws, busy503(from, min(from+period/2, runFor)))
	}
	return ws
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// inProcess calls a handler without sockets.
func inProcess(h http.Handler) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec.Result(), nil
	})
}

const chatBody = `{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"Where is order DR-123456?"}]}`

// record serves a client through a proxy in front of upstream, one request
// every gap from first, until runFor, and records the proxy's journal at
// path. Everything runs in-process, for a synctest bubble.
func record(t *testing.T, path string, upstream http.RoundTripper, ws []event.Window, first, gap time.Duration) {
	t.Helper()
	u, _ := url.Parse("http://upstream.invalid/v1")
	p, err := proxy.New(proxy.Options{Upstream: u, Transport: upstream, Windows: ws})
	if err != nil {
		t.Fatal(err)
	}
	h, _ := journal.NewHeader(nil, p.Log().Start())
	jw, err := journal.Create(path, h, p.Log(), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(first)
	for time.Since(p.Log().Start()) < runFor {
		req := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(chatBody))
		req.Header.Set("Authorization", "Bearer sk-test")
		p.ServeHTTP(httptest.NewRecorder(), req)
		time.Sleep(gap)
	}
	p.Close("test over")
	if err := jw.Finish(scoring.Summarize(p.Log().Events()), event.StatusCompleted); err != nil {
		t.Fatal(err)
	}
}

// samePattern checks two timelines have the same windows, classes and
// statuses, with offsets within tol.
func samePattern(t *testing.T, what string, got, want []replayfault.Window, tol time.Duration) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d windows, want %d\ngot:  %v\nwant: %v", what, len(got), len(want), got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Class() != w.Class() || g.Params[replayfault.ParamStatus] != w.Params[replayfault.ParamStatus] || (g.From-w.From).Abs() > tol || (g.To-w.To).Abs() > tol {
			t.Errorf("%s: window %d is %s, want %s (offsets within %s)", what, i, g, w, tol)
		}
	}
}

// TestReplayReproducesAFlappingOutage records a client's requests through
// the proxy against a flapping 503 server, derives the outage timeline from
// the journal, replays it through the proxy in front of a healthy model for
// a client with other settings (other request times), and derives the
// timeline again from the replay's journal: the same windows, classes and
// statuses, offsets within 50 ms. In fake time, so the offsets are exact to
// the clients' request spacing.
func TestReplayReproducesAFlappingOutage(t *testing.T) {
	dir := t.TempDir()
	synctest.Test(t, func(t *testing.T) {
		recorded := filepath.Join(dir, "incident.jsonl")
		record(t, recorded, inProcess(flapping(time.Now())), nil, 0, 10*time.Millisecond)
		ws, err := replayfault.Load(recorded, replayfault.Options{})
		if err != nil {
			t.Fatal(err)
		}
		samePattern(t, "recorded", ws, truth(), 10*time.Millisecond)

		iw, notes, err := replayfault.Inject(ws)
		if err != nil || len(notes) > 0 {
			t.Fatalf("inject: %v %v", err, notes)
		}
		replayed := filepath.Join(dir, "replay.jsonl")
		record(t, replayed, fakemodel.New(fakemodel.Options{NoLatency: true}).Transport(), iw, 5*time.Millisecond, 25*time.Millisecond)
		again, err := replayfault.Load(replayed, replayfault.Options{Model: proxy.Rung})
		if err != nil {
			t.Fatal(err)
		}
		samePattern(t, "replayed", again, ws, 50*time.Millisecond)
	})
}

// TestReplayOverLoopback is the same drill over real sockets: a flapping
// server on a loopback port, the proxy served on another, a client posting
// every 10 ms. The replay is compared with the recording, within 200 ms:
// in real time a loaded machine (the whole suite under -race) can hold a
// post back by a scheduler's tick or more, which moves where a window is
// seen to end; the fake-time test above holds the 50 ms.
func TestReplayOverLoopback(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	dir := t.TempDir()
	flap := httptest.NewServer(flapping(time.Now()))
	defer flap.Close()
	recorded := filepath.Join(dir, "incident.jsonl")
	serveAndPost(t, recorded, flap.URL+"/v1", nil)
	ws, err := replayfault.Load(recorded, replayfault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != len(truth()) {
		t.Fatalf("recorded %v, want the %d flaps of %v", ws, len(truth()), truth())
	}
	iw, _, err := replayfault.Inject(ws)
	if err != nil {
		t.Fatal(err)
	}
	healthy := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true}))
	defer healthy.Close()
	replayed := filepath.Join(dir, "replay.jsonl")
	serveAndPost(t, replayed, healthy.URL+"/v1", iw)
	again, err := replayfault.Load(replayed, replayfault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	samePattern(t, "replayed over loopback", again, ws, 200*time.Millisecond)
}

// serveAndPost serves the proxy on a loopback port in front of upstream,
// posts a request every 10 ms until runFor, and records the journal.
func serveAndPost(t *testing.T, path, upstream string, ws []event.Window) {
	t.Helper()
	u, _ := url.Parse(upstream)
	p, err := proxy.New(proxy.Options{Upstream: u, Windows: ws})
	if err != nil {
		t.Fatal(err)
	}
	h, _ := journal.NewHeader(nil, p.Log().Start())
	jw, err := journal.Create(path, h, p.Log(), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- proxy.Serve(ctx, ln, p, proxy.Limits{}) }()
	base := "http://" + ln.Addr().String() + "/v1/chat/completions"
	tick := time.NewTicker(10 * time.Millisecond)
	for time.Since(p.Log().Start()) < runFor {
		resp, err := http.Post(base, "application/json", strings.NewReader(chatBody))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		<-tick.C
	}
	tick.Stop()
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if err := jw.Finish(scoring.Summarize(p.Log().Events()), event.StatusCompleted); err != nil {
		t.Fatal(err)
	}
}
