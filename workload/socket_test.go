package workload

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/scoring"
)

// brokenServer serves the fake model over a real loopback socket, except
// that requests for model are broken by fail between from and to after
// the clock starts: drill injects nothing, the server itself fails, as a
// real provider outage would.
type brokenServer struct {
	next     http.Handler
	model    []byte
	from, to time.Duration
	start    atomic.Int64 // unix nanoseconds; 0 until the clock starts
	fail     func(w http.ResponseWriter, r *http.Request)
	broken   atomic.Int64 // requests broken
}

func (b *brokenServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if start := b.start.Load(); start != 0 && bytes.Contains(body, b.model) {
		if since := time.Since(time.Unix(0, start)); since >= b.from && since < b.to {
			b.broken.Add(1)
			b.fail(w, r)
			return
		}
	}
	b.next.ServeHTTP(w, r)
}

// socketDrill runs a short drill in real time against srv: 30 emails at 20
// a second, no injected outage, the breaker policy with the primary's time
// limit at 250 ms, the given SDK retries and its breaker's cooldown at
// 500 ms.
func socketDrill(t *testing.T, b *brokenServer, retries int) (scoring.Summary, []event.Event) {
	t.Helper()
	srv := httptest.NewServer(b)
	defer srv.Close()
	cfg := DefaultConfig()
	cfg.Outage = OutageNone
	cfg.Emails, cfg.Rate, cfg.Follow = 30, 20, 10
	cfg.Policy.Primary.TimeLimit = 250 * time.Millisecond
	cfg.Policy.Primary.Retries = retries
	cfg.Policy.Primary.Breaker.Cooldown = 500 * time.Millisecond
	cfg.MaxDuration = 30 * time.Second
	cfg.Endpoint = Endpoint{BaseURL: srv.URL + "/v1", APIKey: "sk-test"}
	b.start.Store(time.Now().UnixNano())
	r, err := Start(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	s, status, evs := finish(t, r)
	if status != event.StatusCompleted {
		t.Fatalf("status %s", status)
	}
	if b.broken.Load() == 0 {
		t.Fatal("the server broke no request: the test did not test anything")
	}
	return s, evs
}

// TestSocketHangLogsTimeouts hangs the primary model on a real server:
// every attempt its own time limit cut must be logged as a timeout, not
// as "net/http: request canceled" (other_error), which net/http reports
// for about half of them on the socket path.
func TestSocketHangLogsTimeouts(t *testing.T) {
	b := &brokenServer{
		next: fakemodel.New(fakemodel.Options{Seed: 1, LatencyScale: 0.02}), model: []byte(`"model":"gpt-5.4-mini"`),
		from: 100 * time.Millisecond, to: 900 * time.Millisecond,
		fail: func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
	}
	s, evs := socketDrill(t, b, 2)
	timeouts := 0
	for _, e := range evs {
		if e.Kind != event.AttemptEnd || e.Rung != event.ServedPrimary || e.Outcome == event.OK {
			continue
		}
		if e.Outcome != event.Timeout {
			t.Errorf("email %d attempt %d on the hung primary ended %s (%s), want timeout", e.Email, e.Attempt, e.Outcome, e.Detail)
			continue
		}
		timeouts++
	}
	if timeouts < 5 {
		t.Errorf("%d attempts timed out, want at least 5 (the server hung %d requests)", timeouts, b.broken.Load())
	}
	if s.OutageBasis != scoring.BasisObserved || len(s.Observed) == 0 || s.Observed[0].Rung != event.ServedPrimary {
		t.Errorf("outage basis %q, observed %+v: want the primary's observed failure window", s.OutageBasis, s.Observed)
	}
}

// TestReal503OutageIsObserved: a server that really returns 503s, with no
// outage injected. The breaker opens and the backup serves, and the
// summary reports the breaker's first open and the calls to the broken
// model relative to the primary's observed failure window.
func TestReal503OutageIsObserved(t *testing.T) {
	b := &brokenServer{
		next: fakemodel.New(fakemodel.Options{Seed: 1, LatencyScale: 0.02}), model: []byte(`"model":"gpt-5.4-mini"`),
		from: 200 * time.Millisecond, to: 1200 * time.Millisecond,
		fail: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"error":{"message":"overloaded","type":"server_error","code":"overloaded"}}`)
		},
	}
	s, evs := socketDrill(t, b, 0) // no SDK retries: every 503 is a failed call the breaker counts
	if len(s.OutageWindows) != 0 {
		t.Errorf("injected windows %+v, want none", s.OutageWindows)
	}
	if s.OutageBasis != scoring.BasisObserved {
		t.Fatalf("outage basis %q, want observed", s.OutageBasis)
	}
	if len(s.Observed) == 0 || s.Observed[0].Rung != event.ServedPrimary {
		t.Fatalf("observed %+v, want the primary's failure window", s.Observed)
	}
	o := s.Observed[0]
	if o.StartS < 0.15 || o.EndS > 1.6 || o.FailedAttempts < 5 {
		t.Errorf("observed window %.3f–%.3f s with %d failed attempts, want about 0.2–1.2 s and at least 5", o.StartS, o.EndS, o.FailedAttempts)
	}
	if s.BreakerFirstOpenS == nil || *s.BreakerFirstOpenS < 0 || *s.BreakerFirstOpenS > 1 {
		t.Errorf("breaker first open %v s after the observed start, want 0–1 s", s.BreakerFirstOpenS)
	}
	if s.BreakerOpens == 0 || s.Served.Backup == 0 {
		t.Errorf("breaker opens %d, backup served %d: the outage was not felt", s.BreakerOpens, s.Served.Backup)
	}
	// Calls to the broken model: the primary's attempts started inside the
	// observed window, counted here from the log.
	want := 0
	start, end := time.Duration(o.StartS*float64(time.Second)), time.Duration(o.EndS*float64(time.Second))
	for _, e := range evs {
		if e.Kind == event.AttemptStart && e.Rung == event.ServedPrimary && e.At >= start-time.Millisecond && e.At <= end+time.Millisecond {
			want++
		}
	}
	if s.CallsToBrokenOutage == 0 || s.CallsToBrokenOutage != o.CallsInWindow || absDiff(s.CallsToBrokenOutage, want) > 1 {
		t.Errorf("calls to broken %d (observed %d), counted %d: want them equal and above 0", s.CallsToBrokenOutage, o.CallsInWindow, want)
	}
}

func absDiff(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}
