package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"
)

// The services' HTTP API:
//
//	order service:   GET /orders/{order_id}             -> Order
//	carrier service: GET /shipments/{order_id}          -> Delivery
//	                 GET /shipments/{order_id}/events   -> Tracking
//
// An unknown order is a 404 {"error": "not_found", "message": …}; a bad
// method a 405; any other path a 404 {"error": "unknown_path", …}.

// OrderService returns the order service's handler for shop. Each answer
// waits latency first (0: at once), honouring the request's context.
func OrderService(shop *Shop, latency time.Duration) http.Handler {
	return service(latency, func(path string) (any, bool, bool) {
		id, ok := strings.CutPrefix(path, "/orders/")
		if !ok || id == "" || strings.Contains(id, "/") {
			return nil, false, false
		}
		o, found := shop.Order(id)
		return shop.sized(o, o, orderNotes), found, true
	})
}

// CarrierService returns the carrier service's handler for shop (both
// carrier functions call it). Each answer waits latency first.
func CarrierService(shop *Shop, latency time.Duration) http.Handler {
	return service(latency, func(path string) (any, bool, bool) {
		rest, ok := strings.CutPrefix(path, "/shipments/")
		if !ok || rest == "" {
			return nil, false, false
		}
		if id, events := strings.CutSuffix(rest, "/events"); events {
			if id == "" || strings.Contains(id, "/") {
				return nil, false, false
			}
			t, found := shop.Tracking(id)
			o, _ := shop.Order(id)
			return shop.sized(t, o, scanNotes), found, true
		}
		if strings.Contains(rest, "/") {
			return nil, false, false
		}
		d, found := shop.Delivery(rest)
		o, _ := shop.Order(rest)
		return shop.sized(d, o, scanNotes), found, true
	})
}

// service is a read-only JSON service: lookup maps a path to its answer,
// whether the order exists, and whether the path is known.
func service(latency time.Duration, lookup func(path string) (answer any, found, known bool)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if latency > 0 {
			t := time.NewTimer(latency)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
				return
			}
		}
		if r.Method != http.MethodGet {
			w.Header().Set("Allow", http.MethodGet)
			writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": "method_not_allowed", "message": "use GET"})
			return
		}
		v, found, known := lookup(r.URL.Path)
		switch {
		case !known:
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknown_path", "message": "no such resource: " + r.URL.Path})
		case !found:
			id := r.URL.Path[strings.LastIndex(strings.TrimSuffix(r.URL.Path, "/events"), "/")+1:]
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "not_found", "message": "no order " + strings.TrimSuffix(id, "/events")})
		default:
			writeJSON(w, http.StatusOK, v)
		}
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

// Transport returns an http.RoundTripper that serves every request with h
// in-process, without sockets (so it works in fake time inside a
// testing/synctest bubble). If the request's context ends before h answers,
// RoundTrip returns the context's error; h, which sees the same context,
// is waited for, so no goroutine outlives the request.
func Transport(h http.Handler) http.RoundTripper { return handlerTransport{h} }

type handlerTransport struct{ h http.Handler }

// RoundTrip serves req with the handler.
func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("reading the request body: %w", err)
		}
		body = b
	}
	ctx, cancel := context.WithCancel(req.Context())
	defer cancel()
	in := req.Clone(ctx)
	in.Body = io.NopCloser(bytes.NewReader(body))
	in.RequestURI = req.URL.RequestURI()
	rec := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		t.h.ServeHTTP(rec, in)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		cancel()
		<-done
		return nil, req.Context().Err()
	}
	resp := rec.Result()
	resp.Request = req
	return resp, nil
}

var _ http.RoundTripper = handlerTransport{}
