package tools_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/tools"
)

// carrierOutage is a client whose carrier transport is behind an injector
// with one window of kind from 0 on, and the faults it applied.
func carrierOutage(t *testing.T, kind string, kv ...string) (*tools.Client, *[]inject.Applied) {
	t.Helper()
	w, err := inject.ParseFault(kind, kv)
	if err != nil {
		t.Fatal(err)
	}
	w.To = -1
	var applied []inject.Applied
	c := tools.NewInProcess(emails.All(), 0, func(dep string, rt http.RoundTripper) http.RoundTripper {
		if dep != tools.Carrier {
			return rt
		}
		in := inject.New(rt, time.Now(), inject.Options{Target: tools.Carrier, OnFault: func(_ *http.Request, a inject.Applied) {
			applied = append(applied, a)
		}})
		if err := in.Add(w); err != nil {
			t.Fatal(err)
		}
		return in
	})
	return c, &applied
}

// TestInjectOnTheCarrier: the existing faults apply to the carrier
// service through inject, with their own windows; the order service is
// untouched.
func TestInjectOnTheCarrier(t *testing.T) {
	const order = `{"order_id":"DR-118402"}`
	synctest.Test(t, func(t *testing.T) {
		c, applied := carrierOutage(t, "hang")
		start := time.Now()
		r, _ := c.Call(context.Background(), tools.GetTrackingEvents, order)
		if !errors.Is(r.Err, context.DeadlineExceeded) || time.Since(start) != tools.DefaultTimeout {
			t.Errorf("hang: %v after %v, want the 30s timeout", r.Err, time.Since(start))
		}
		if len(*applied) != 1 || (*applied)[0].Kind != "hang" || (*applied)[0].Rung != tools.Carrier {
			t.Errorf("faults applied %+v", *applied)
		}
		if r, _ := c.Call(context.Background(), tools.GetOrder, order); r.Err != nil {
			t.Errorf("the order service broke with the carrier: %v", r.Err)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		c, _ := carrierOutage(t, "slow", "delay=4s")
		start := time.Now()
		r, _ := c.Call(context.Background(), tools.GetDeliveryStatus, order)
		if r.Err != nil || time.Since(start) != 4*time.Second {
			t.Errorf("slow 4s: %v after %v", r.Err, time.Since(start))
		}
	})
	c, _ := carrierOutage(t, "busy")
	r, _ := c.Call(context.Background(), tools.GetDeliveryStatus, order)
	var se *tools.StatusError
	if !errors.As(r.Err, &se) || se.Status != 503 {
		t.Errorf("busy: %v, want status 503", r.Err)
	}
}
