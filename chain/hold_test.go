package chain

import (
	"net/http"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
)

// heldChain is the primary alone behind a breaker that one failure opens
// for cooldown, under h; broken says whether the model is down (503 at once).
func heldChain(h *Hold, broken *atomic.Bool, cooldown time.Duration) (*Chain, *breaker.Breaker) {
	fake := fakemodel.New(fakemodel.Options{NoLatency: true}).Transport()
	rt := &countingTransport{next: fake}
	rt.fail = func(r *http.Request) (*http.Response, error) {
		if broken.Load() {
			return &http.Response{StatusCode: 503, Header: http.Header{}, Body: http.NoBody, Request: r}, nil
		}
		return fake.RoundTrip(r)
	}
	b := breaker.New(breaker.Settings{Name: "primary", Trip: breaker.Trip{Failures: 1}, Cooldown: cooldown})
	r := NewRung(RungConfig{Name: "primary", Model: fakemodel.ModelMini, TimeLimit: 5 * time.Second, Retries: 0,
		BaseURL: "http://fake.invalid/v1", APIKey: "k", Transport: rt, Breaker: b})
	return &Chain{Rungs: []*Rung{r}, Hold: h}, b
}

// TestHoldPersonHandsOverAtOnce: with the primary down, a person-held
// email is handed over with the primary's outcome; with its breaker open,
// at once, without a call.
func TestHoldPersonHandsOverAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var broken atomic.Bool
		broken.Store(true)
		c, b := heldChain(&Hold{Mode: event.HoldPerson}, &broken, 5*time.Second)
		defer b.Close()
		e, _ := emails.ByID(6)
		res := c.Serve(t.Context(), e)
		if res.ServedBy != event.ServedHandedOver || res.Handover == nil || res.Handover.Reason != string(event.HTTP5xx) {
			t.Fatalf("first: %+v %+v", res, res.Handover)
		}
		start := time.Now()
		res = c.Serve(t.Context(), e)
		if res.ServedBy != event.ServedHandedOver || res.Handover.Reason != string(event.BreakerOpen) || time.Since(start) != 0 || res.Handover.Told != 0 {
			t.Fatalf("breaker open: %+v %+v after %s", res, res.Handover, time.Since(start))
		}
	})
}

// TestHoldWaitForPrimary: a waiting email goes through when the breaker
// lets it after the model is back; a second one waits past its deadline
// and is handed over; a full queue hands over at once.
func TestHoldWaitForPrimary(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var broken atomic.Bool
		broken.Store(true)
		h := &Hold{Mode: event.HoldWaitForPrimary, Wait: 20 * time.Second, Queue: NewQueue(1)}
		c, b := heldChain(h, &broken, 5*time.Second)
		defer b.Close()
		e, _ := emails.ByID(6)
		go func() { time.Sleep(7 * time.Second); broken.Store(false) }() // the model is back at 7 s
		type out struct {
			res  Result
			took time.Duration
		}
		first := make(chan out)
		go func() {
			start := time.Now()
			r := c.Serve(t.Context(), e)
			first <- out{r, time.Since(start)}
		}()
		time.Sleep(time.Second)
		full := c.Serve(t.Context(), e) // the queue's one place is taken
		if full.ServedBy != event.ServedHandedOver || full.Handover.Reason != event.HandoverQueueFull {
			t.Errorf("queue full: %+v %+v", full, full.Handover)
		}
		got := <-first
		if got.res.ServedBy != event.ServedPrimary || got.res.Handover == nil || got.res.Handover.Waited <= 0 || got.took < 7*time.Second || got.took > 11*time.Second {
			t.Errorf("waited: %+v %+v after %s", got.res, got.res.Handover, got.took)
		}

		broken.Store(true)
		h.Wait = 3 * time.Second
		start := time.Now()
		late := c.Serve(t.Context(), e)
		if late.ServedBy != event.ServedHandedOver || late.Handover.Reason != event.HandoverDeadline || time.Since(start) < 3*time.Second {
			t.Errorf("deadline: %+v %+v after %s", late, late.Handover, time.Since(start))
		}
	})
}
