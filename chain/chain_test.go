package chain

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openai/openai-go/v3"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
)

func TestClassify(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name   string
		parent context.Context
		err    error
		want   event.Outcome
	}{
		{"ok", nil, nil, event.OK},
		{"busy tone", nil, &openai.Error{StatusCode: 503}, event.HTTP5xx},
		{"rate limit", nil, &openai.Error{StatusCode: 429}, event.HTTP429},
		{"bad request", nil, fmt.Errorf("wrapped: %w", &openai.Error{StatusCode: 400}), event.HTTP4xx},
		{"request timeout (bare deadline)", nil, context.DeadlineExceeded, event.Timeout},
		{"client timeout (url.Error)", nil, &url.Error{Op: "Post", URL: "x", Err: context.DeadlineExceeded}, event.Timeout},
		{"refused", nil, &url.Error{Op: "Post", URL: "x", Err: &net.OpError{Op: "dial", Err: errors.New("connection refused")}}, event.ConnError},
		{"run ended", cancelled, &url.Error{Op: "Post", URL: "x", Err: context.Canceled}, event.Canceled},
		{"something else", nil, errors.New("boom"), event.OtherError},
	} {
		if got := Classify(tc.parent, tc.err); got != tc.want {
			t.Errorf("%s: Classify = %s, want %s", tc.name, got, tc.want)
		}
	}
}

// countingTransport counts requests per model path and can fail them all.
type countingTransport struct {
	next  http.RoundTripper
	calls atomic.Int32
	fail  func(*http.Request) (*http.Response, error)
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.calls.Add(1)
	if c.fail != nil {
		return c.fail(r)
	}
	return c.next.RoundTrip(r)
}

func rung(name, model string, rt http.RoundTripper, b *breaker.Breaker) *Rung {
	return NewRung(RungConfig{Name: name, Model: model, TimeLimit: 5 * time.Second, Retries: 2,
		BaseURL: "http://fake.invalid/v1", APIKey: "k", Transport: rt, Breaker: b})
}

func TestChainFallsBackAndBreakerSkips(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fake := fakemodel.New(fakemodel.Options{NoLatency: true}).Transport()
		broken := &countingTransport{fail: func(r *http.Request) (*http.Response, error) {
			<-r.Context().Done() // a hang
			return nil, r.Context().Err()
		}}
		backup := &countingTransport{next: fake}
		b := breaker.New(breaker.Settings{Name: "primary", Trip: breaker.Trip{Failures: 1}})
		var skipped, ends int
		c := &Chain{
			Rungs:  []*Rung{rung("primary", fakemodel.ModelMini, broken, b), rung("backup", fakemodel.ModelNano, backup, nil)},
			Canned: true,
			Hooks: Hooks{
				RungSkipped: func(context.Context, *Rung) { skipped++ },
				RungEnd:     func(context.Context, *Rung, event.Outcome, error) { ends++ },
			},
		}
		e := emails.All()[34]
		start := time.Now()
		res := c.Serve(t.Context(), e)
		if res.ServedBy != "backup" || res.Answer == nil {
			t.Fatalf("first email served by %q, want backup with an answer", res.ServedBy)
		}
		// Three 5 s attempts and the SDK's backoff between them.
		if took := time.Since(start); took < 16*time.Second || took > 17*time.Second {
			t.Errorf("hang then fallback took %s, want about 16.3 s", took)
		}
		if len(res.Errors) != 1 || res.Errors[0].Outcome != event.Timeout {
			t.Errorf("rung errors %+v, want one timeout", res.Errors)
		}
		// The breaker is open now: the next email skips the primary at once.
		before := broken.calls.Load()
		start = time.Now()
		res = c.Serve(t.Context(), e)
		if res.ServedBy != "backup" || broken.calls.Load() != before || time.Since(start) != 0 || skipped != 1 {
			t.Fatalf("with the breaker open: served by %s, %d new calls to the primary, took %s, %d skips",
				res.ServedBy, broken.calls.Load()-before, time.Since(start), skipped)
		}
		if res.Errors[0].Outcome != event.BreakerOpen {
			t.Errorf("skip recorded as %s", res.Errors[0].Outcome)
		}
	})
}

func TestCannedWhenEverythingFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		busy := &countingTransport{fail: func(r *http.Request) (*http.Response, error) {
			return nil, &net.OpError{Op: "dial", Err: errors.New("connection refused")}
		}}
		c := &Chain{Rungs: []*Rung{rung("primary", "m", busy, nil), rung("backup", "n", busy, nil)}, Canned: true}
		res := c.Serve(t.Context(), emails.All()[0])
		if res.ServedBy != event.ServedCanned || res.Reply != CannedReply || len(res.Errors) != 2 {
			t.Fatalf("result %+v, want the canned reply after two failed rungs", res)
		}
		c.Canned = false
		if res := c.Serve(t.Context(), emails.All()[0]); res.ServedBy != event.ServedError {
			t.Fatalf("without the canned rung: served by %s, want error", res.ServedBy)
		}
	})
}

// TestClientErrorsDoNotTrip: a 404 (unknown model) is the caller's fault;
// a breaker never counts it.
func TestClientErrorsDoNotTrip(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fake := fakemodel.New(fakemodel.Options{NoLatency: true}).Transport()
		b := breaker.New(breaker.Settings{Name: "primary", Trip: breaker.Trip{Failures: 2}})
		c := &Chain{Rungs: []*Rung{rung("primary", "no-such-model", fake, b)}}
		for range 5 {
			res := c.Serve(t.Context(), emails.All()[0])
			if res.ServedBy != event.ServedError || res.Errors[0].Outcome != event.HTTP4xx {
				t.Fatalf("result %+v, want an http_4xx error", res)
			}
		}
		if b.State() != breaker.Closed {
			t.Fatalf("breaker %s after 4xx errors, want closed", b.State())
		}
	})
}

func TestCancelledRunIsAnError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hang := &countingTransport{fail: func(r *http.Request) (*http.Response, error) {
			<-r.Context().Done()
			return nil, r.Context().Err()
		}}
		c := &Chain{Rungs: []*Rung{rung("primary", "m", hang, nil), rung("backup", "n", hang, nil)}, Canned: true}
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		res := c.Serve(ctx, emails.All()[0])
		if res.ServedBy != event.ServedError || len(res.Errors) != 1 || res.Errors[0].Outcome != event.Canceled {
			t.Fatalf("result %+v, want an error after one cancelled rung and no canned reply", res)
		}
	})
}
