package chain

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
)

// slowTransport answers through next after waiting delay (or fails when the
// request's context ends first).
func slowTransport(next http.RoundTripper, delay time.Duration) http.RoundTripper {
	return &countingTransport{fail: func(r *http.Request) (*http.Response, error) {
		select {
		case <-time.After(delay):
			return next.RoundTrip(r)
		case <-r.Context().Done():
			return nil, r.Context().Err()
		}
	}}
}

// endLog records rung ends with their hedge marks.
type endLog struct {
	mu   sync.Mutex
	ends []string
}

func (l *endLog) hooks() Hooks {
	return Hooks{RungEnd: func(ctx context.Context, r *Rung, o event.Outcome, _ error) {
		l.mu.Lock()
		defer l.mu.Unlock()
		s := r.Name() + ":" + string(o)
		if Hedged(ctx) {
			s += ":hedged"
		}
		if HedgeLost(ctx) {
			s += ":lost"
		}
		l.ends = append(l.ends, s)
	}}
}

func TestHedgeAfterAsksTheBackup(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fake := fakemodel.New(fakemodel.Options{NoLatency: true}).Transport()
		var log endLog
		b := breaker.New(breaker.Settings{Name: "primary", Trip: breaker.Trip{Failures: 1}})
		defer b.Close()
		c := &Chain{Rungs: []*Rung{rung("primary", fakemodel.ModelMini, slowTransport(fake, 4*time.Second), b),
			rung("backup", fakemodel.ModelNano, slowTransport(fake, 500*time.Millisecond), nil)},
			Canned: true, HedgeAfter: time.Second, Hooks: log.hooks()}
		start := time.Now()
		res := c.Serve(t.Context(), emails.All()[0])
		if res.ServedBy != event.ServedBackup || time.Since(start) != 1500*time.Millisecond {
			t.Fatalf("served by %s after %s, want backup after 1.5 s (hedge at 1 s + 0.5 s)", res.ServedBy, time.Since(start))
		}
		want := []string{"backup:ok:hedged", "primary:canceled:lost"}
		if len(log.ends) != 2 || log.ends[0] != want[0] || log.ends[1] != want[1] {
			t.Fatalf("rung ends %v, want %v", log.ends, want)
		}
		if b.State() != breaker.Closed {
			t.Fatal("the cancelled loser of a hedge was counted as a failure")
		}
		// A fast primary answers before the hedge: no backup call.
		log.ends = nil
		c.Rungs[0] = rung("primary", fakemodel.ModelMini, slowTransport(fake, 300*time.Millisecond), nil)
		if res := c.Serve(t.Context(), emails.All()[0]); res.ServedBy != event.ServedPrimary || len(log.ends) != 1 {
			t.Fatalf("served by %s with ends %v, want the primary alone", res.ServedBy, log.ends)
		}
	})
}

func TestEmailDeadlineCutsTheChain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fake := fakemodel.New(fakemodel.Options{NoLatency: true}).Transport()
		hang := &countingTransport{fail: func(r *http.Request) (*http.Response, error) {
			<-r.Context().Done()
			return nil, r.Context().Err()
		}}
		backup := &countingTransport{next: fake}
		var log endLog
		c := &Chain{Rungs: []*Rung{rung("primary", "m", hang, nil), rung("backup", fakemodel.ModelNano, backup, nil)},
			Canned: true, EmailDeadline: 3 * time.Second, Hooks: log.hooks()}
		start := time.Now()
		res := c.Serve(t.Context(), emails.All()[0])
		if res.ServedBy != event.ServedCanned || time.Since(start) != 3*time.Second {
			t.Fatalf("served by %s after %s, want canned at the 3 s deadline", res.ServedBy, time.Since(start))
		}
		if backup.calls.Load() != 0 || len(res.Errors) != 2 || res.Errors[0].Outcome != event.Deadline || res.Errors[1].Outcome != event.Deadline {
			t.Fatalf("errors %+v, backup calls %d: want the primary cut (deadline) and the backup skipped", res.Errors, backup.calls.Load())
		}
		// With the rules rung, the email gets keyword triage instead.
		c.Rules = true
		if res := c.Serve(t.Context(), emails.All()[0]); res.ServedBy != event.ServedRules || res.Answer == nil {
			t.Fatalf("served by %s, want rules with an answer", res.ServedBy)
		}
	})
}

func TestCountingOptions(t *testing.T) {
	for _, tc := range []struct {
		c    breaker.Counting
		o    event.Outcome
		want breaker.Result
	}{
		{breaker.Counting{}, event.HTTP429, breaker.Ignored},
		{breaker.Counting{Count429: true}, event.HTTP429, breaker.Failure},
		{breaker.Counting{}, event.Invalid, breaker.Ignored},
		{breaker.Counting{CountInvalid: true}, event.Invalid, breaker.Failure},
		{breaker.Counting{}, event.HTTP5xx, breaker.Failure},
		{breaker.Counting{Count429: true, CountInvalid: true}, event.Deadline, breaker.Ignored},
		{breaker.Counting{}, event.OK, breaker.Success},
	} {
		if got := CountResult(tc.c, tc.o); got != tc.want {
			t.Errorf("%+v counts %s as %v, want %v", tc.c, tc.o, got, tc.want)
		}
	}
	h := http.Header{}
	h.Set("Retry-After", "30")
	if d := RetryAfterHeader(h, time.Now()); d != 30*time.Second {
		t.Errorf("Retry-After 30 read as %s", d)
	}
	h.Set("Retry-After-Ms", "1500")
	if d := RetryAfterHeader(h, time.Now()); d != 1500*time.Millisecond {
		t.Errorf("Retry-After-Ms 1500 read as %s", d)
	}
}

// TestRetryAfterReachesTheBreaker: a 503 with Retry-After 30 s, through the
// real SDK, keeps an honouring breaker open 30 s instead of its 5 s cooldown.
func TestRetryAfterReachesTheBreaker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		busy := &countingTransport{fail: func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: 503, Header: http.Header{"Retry-After": {"30"}, "Content-Type": {"application/json"}},
				Body: io.NopCloser(strings.NewReader(`{"error":{"message":"overloaded"}}`)), Request: r}, nil
		}}
		b := breaker.New(breaker.Settings{Name: "primary", Trip: breaker.Trip{Failures: 1}, RetryAfter: breaker.RetryAfterHonour})
		defer b.Close()
		r := NewRung(RungConfig{Name: "primary", Model: "m", TimeLimit: 5 * time.Second, Retries: 0,
			BaseURL: "http://fake.invalid/v1", APIKey: "k", Transport: busy, Breaker: b})
		c := &Chain{Rungs: []*Rung{r}, Canned: true}
		if res := c.Serve(t.Context(), emails.All()[0]); res.ServedBy != event.ServedCanned {
			t.Fatalf("served by %s, want canned", res.ServedBy)
		}
		time.Sleep(29 * time.Second)
		if s := b.State(); s != breaker.Open {
			t.Fatalf("state %v 29 s after a Retry-After of 30 s, want open", s)
		}
		time.Sleep(time.Second)
		if s := b.State(); s != breaker.HalfOpen {
			t.Fatalf("state %v 30 s after, want half-open", s)
		}
	})
}

// TestMaxRetryDelay: with Retry-After 30 s, the SDK waits 30 s before each
// retry; with a 10 s max retry delay it stops retrying at once.
func TestMaxRetryDelay(t *testing.T) {
	for _, tc := range []struct {
		max      time.Duration
		attempts int32
		took     time.Duration
	}{
		{0, 3, 60 * time.Second},
		{10 * time.Second, 1, 0},
	} {
		synctest.Test(t, func(t *testing.T) {
			busy := &countingTransport{fail: func(r *http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: 503, Header: http.Header{"Retry-After": {"30"}, "Content-Type": {"application/json"}},
					Body: io.NopCloser(strings.NewReader(`{"error":{"message":"overloaded"}}`)), Request: r}, nil
			}}
			r := NewRung(RungConfig{Name: "primary", Model: "m", TimeLimit: 5 * time.Second, Retries: 2, MaxRetryDelay: tc.max,
				BaseURL: "http://fake.invalid/v1", APIKey: "k", Transport: busy})
			start := time.Now()
			(&Chain{Rungs: []*Rung{r}}).Serve(t.Context(), emails.All()[0])
			if n, took := busy.calls.Load(), time.Since(start); n != tc.attempts || took != tc.took {
				t.Fatalf("max retry delay %s: %d attempts in %s, want %d in %s", tc.max, n, took, tc.attempts, tc.took)
			}
		})
	}
}
