package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/tools"
)

func TestShopHasEveryEmailOrder(t *testing.T) {
	shop := tools.NewShop(emails.All())
	n := 0
	for _, e := range emails.All() {
		if e.Truth.OrderNumber == "" {
			continue
		}
		n++
		o, ok := shop.Order(e.Truth.OrderNumber)
		if !ok || o.Product != e.Truth.Product {
			t.Errorf("email %d: order %+v, %v; want %s with %q", e.ID, o, ok, e.Truth.OrderNumber, e.Truth.Product)
		}
	}
	if shop.Len() != 81 || n != 81 {
		t.Errorf("%d orders from %d emails with one, want 81", shop.Len(), n)
	}
	if _, ok := shop.Order("#118402"); !ok {
		t.Error("an order number written #118402 is not found")
	}
}

func TestDependencies(t *testing.T) {
	for name, want := range map[string]string{tools.GetOrder: tools.Orders, tools.GetDeliveryStatus: tools.Carrier, tools.GetTrackingEvents: tools.Carrier, "refund": ""} {
		if got := tools.Dependency(name); got != want {
			t.Errorf("Dependency(%s) = %q, want %q", name, got, want)
		}
	}
	if got := tools.Unavailable(tools.Carrier); got != "delivery tracking is temporarily unavailable; proceed without it or escalate" {
		t.Errorf("Unavailable(carrier) = %q", got)
	}
}

func TestDefinitions(t *testing.T) {
	b, err := json.Marshal(tools.Definitions())
	if err != nil {
		t.Fatal(err)
	}
	var defs []struct {
		Type     string `json:"type"`
		Function struct {
			Name       string         `json:"name"`
			Strict     bool           `json:"strict"`
			Parameters map[string]any `json:"parameters"`
		} `json:"function"`
	}
	json.Unmarshal(b, &defs)
	if len(defs) != 3 {
		t.Fatalf("%d definitions: %s", len(defs), b)
	}
	for i, d := range defs {
		if d.Type != "function" || d.Function.Name != tools.Names[i] || !d.Function.Strict || d.Function.Parameters["additionalProperties"] != false {
			t.Errorf("definition %d: %+v", i, d)
		}
	}
}

func TestParseArgs(t *testing.T) {
	for args, ok := range map[string]bool{
		`{"order_id":"DR-104233"}`: true,
		`{"order_id": "DR-1`:       false,
		`{"order_id":""}`:          false,
		`{}`:                       false,
		`{"order_id":"a"} {}`:      false,
		`not json`:                 false,
	} {
		_, err := tools.ParseArgs(args)
		if (err == nil) != ok || (err != nil && !errors.Is(err, tools.ErrBadArguments)) {
			t.Errorf("ParseArgs(%s): %v", args, err)
		}
	}
}

// clients returns the in-process client and one whose services listen on
// loopback.
func clients(t *testing.T) map[string]*tools.Client {
	shop := tools.NewShop(emails.All())
	orders := httptest.NewServer(tools.OrderService(shop, 0))
	carrier := httptest.NewServer(tools.CarrierService(shop, 0))
	t.Cleanup(orders.Close)
	t.Cleanup(carrier.Close)
	return map[string]*tools.Client{
		"in-process": tools.NewInProcess(emails.All(), 0, nil),
		"loopback":   {Orders: orders.Client(), Carrier: carrier.Client(), OrdersURL: orders.URL, CarrierURL: carrier.URL},
	}
}

func TestCalls(t *testing.T) {
	for name, c := range clients(t) {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				tool, args string
				dep        string
				status     int
				failed     bool
				has        string
			}{
				{tools.GetOrder, `{"order_id":"DR-104233"}`, tools.Orders, 200, false, `"product":"Ember 5 Sleeping Bag"`},
				{tools.GetOrder, `{"order_id":"DR-999999"}`, tools.Orders, 404, false, `"error":"not_found"`},
				{tools.GetDeliveryStatus, `{"order_id":"DR-118402"}`, tools.Carrier, 200, false, `"carrier":`},
				{tools.GetTrackingEvents, `{"order_id":"DR-118402"}`, tools.Carrier, 200, false, `"events":[`},
				{tools.GetDeliveryStatus, `{"order_id":"DR-999999"}`, tools.Carrier, 404, false, `"error":"not_found"`},
				{tools.GetOrder, `{"order_id": "DR-1`, tools.Orders, 0, true, `"error":"invalid_arguments"`},
			} {
				r, err := c.Call(context.Background(), tc.tool, tc.args)
				if err != nil {
					t.Fatal(err)
				}
				if r.Dependency != tc.dep || r.Status != tc.status || (r.Err != nil) != tc.failed || !strings.Contains(r.Content, tc.has) {
					t.Errorf("%s(%s): %+v; want %s, status %d, failed %v, content with %s", tc.tool, tc.args, r, tc.dep, tc.status, tc.failed, tc.has)
				}
			}
			if _, err := c.Call(context.Background(), "refund", `{}`); err == nil {
				t.Error("an unknown tool is not an error")
			}
		})
	}
}

// hang is a transport that never answers: it waits for the request's end.
type hang struct{}

func (hang) RoundTrip(r *http.Request) (*http.Response, error) {
	<-r.Context().Done()
	return nil, r.Context().Err()
}

// busy answers every request 503.
type busy struct{}

func (busy) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	rec.WriteHeader(http.StatusServiceUnavailable)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

func TestCarrierFaultsAndTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		wrap := func(dep string, rt http.RoundTripper) http.RoundTripper {
			if dep == tools.Carrier {
				return hang{}
			}
			return rt
		}
		c := tools.NewInProcess(emails.All(), 0, wrap)
		start := time.Now()
		r, _ := c.Call(context.Background(), tools.GetDeliveryStatus, `{"order_id":"DR-118402"}`)
		if waited := time.Since(start); waited != tools.DefaultTimeout || !errors.Is(r.Err, context.DeadlineExceeded) || !strings.Contains(r.Content, `"error":"timeout"`) {
			t.Errorf("a hanging carrier: %+v after %v; want a timeout result after 30s", r, waited)
		}
		c.Timeout = 2 * time.Second
		start = time.Now()
		c.Call(context.Background(), tools.GetTrackingEvents, `{"order_id":"DR-118402"}`)
		if waited := time.Since(start); waited != 2*time.Second {
			t.Errorf("Timeout 2s: waited %v", waited)
		}
		if r, _ := c.Call(context.Background(), tools.GetOrder, `{"order_id":"DR-118402"}`); r.Err != nil || r.Status != 200 {
			t.Errorf("the order service is not behind the carrier's fault: %+v", r)
		}
	})
	c := tools.NewInProcess(emails.All(), 0, func(dep string, rt http.RoundTripper) http.RoundTripper { return busy{} })
	r, _ := c.Call(context.Background(), tools.GetOrder, `{"order_id":"DR-118402"}`)
	var se *tools.StatusError
	if !errors.As(r.Err, &se) || se.Status != 503 || !strings.Contains(r.Content, `"error":"service_error"`) {
		t.Errorf("a busy order service: %+v", r)
	}
}

func TestServiceLatency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := tools.NewInProcess(emails.All(), 150*time.Millisecond, nil)
		start := time.Now()
		if r, _ := c.Call(context.Background(), tools.GetOrder, `{"order_id":"DR-118402"}`); r.Err != nil {
			t.Fatal(r.Err)
		}
		if d := time.Since(start); d != 150*time.Millisecond {
			t.Errorf("answered after %v, want 150ms", d)
		}
	})
}

func TestServiceRejectsOtherPathsAndMethods(t *testing.T) {
	h := tools.CarrierService(tools.NewShop(emails.All()), 0)
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/shipments/DR-118402", 200},
		{"GET", "/shipments/DR-118402/events", 200},
		{"GET", "/shipments/", 404},
		{"GET", "/orders/DR-118402", 404},
		{"POST", "/shipments/DR-118402", 405},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		if rec.Code != c.status {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, rec.Code, c.status)
		}
	}
}

func TestLoopback(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	c, err := tools.Loopback(ctx, emails.All(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.OrdersURL, "http://127.0.0.1:") || c.OrdersURL == c.CarrierURL {
		t.Errorf("URLs %s and %s", c.OrdersURL, c.CarrierURL)
	}
	r, _ := c.Call(context.Background(), tools.GetTrackingEvents, `{"order_id":"DR-118402"}`)
	if r.Err != nil || r.Status != 200 || !strings.Contains(r.Content, `"events":[`) {
		t.Errorf("over loopback: %+v", r)
	}
	stop()
	c.Timeout = 2 * time.Second
	deadline := time.Now().Add(5 * time.Second)
	for {
		c.Carrier.CloseIdleConnections()
		r, _ = c.Call(context.Background(), tools.GetDeliveryStatus, `{"order_id":"DR-118402"}`)
		if r.Err != nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if r.Err == nil {
		t.Error("the carrier still answers after its context ended")
	}
}
