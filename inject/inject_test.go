package inject

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// okTransport answers every request with a small 200.
type okTransport struct{ calls int }

func (o *okTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	o.calls++
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(`{"object":"list","data":[]}`)), Request: req}, nil
}

func TestWindowsPickAttemptsByStartTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		next := &okTransport{}
		var faults []string
		in := New(next, time.Now(), func(_ *http.Request, kind string) { faults = append(faults, kind) })
		if err := in.Add(Window{Kind: "busy", From: 2 * time.Second, To: 4 * time.Second}); err != nil {
			t.Fatal(err)
		}
		status := func() int {
			req, _ := http.NewRequest("GET", "http://model.invalid/v1/models", nil)
			resp, err := in.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		var got []int
		for range 6 {
			got = append(got, status())
			time.Sleep(time.Second)
		}
		want := []int{200, 200, 503, 503, 200, 200}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("statuses by second %v, want %v", got, want)
			}
		}
		if len(faults) != 2 || next.calls != 4 {
			t.Fatalf("faults %v, calls through %d; want 2 busy faults and 4 calls through", faults, next.calls)
		}
	})
}

// TestBusyIsAnOpenAIError: the SDK sees the busy tone as a real 503 with
// OpenAI's error body, and retries it twice.
func TestBusyIsAnOpenAIError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in := New(&okTransport{}, time.Now(), nil)
		if err := in.Add(Window{Kind: "busy", From: 0, To: time.Hour}); err != nil {
			t.Fatal(err)
		}
		attempts := 0
		counted := roundTripFunc(func(r *http.Request) (*http.Response, error) { attempts++; return in.RoundTrip(r) })
		c := openai.NewClient(option.WithBaseURL("http://model.invalid/v1"), option.WithAPIKey("k"),
			option.WithHTTPClient(&http.Client{Transport: counted}))
		_, err := c.Models.List(t.Context())
		var apiErr *openai.Error
		if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || apiErr.Code != "overloaded" {
			t.Fatalf("error %v, want *openai.Error 503 overloaded", err)
		}
		if attempts != 3 {
			t.Fatalf("%d attempts, want 3 (the SDK's 2 retries)", attempts)
		}
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestHangWaitsForTheAttemptsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in := New(&okTransport{}, time.Now(), nil)
		if err := in.Add(Window{Kind: "hang", From: 0, To: -1}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", "http://model.invalid/v1/models", nil)
		start := time.Now()
		_, err := in.RoundTrip(req)
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != 5*time.Second {
			t.Fatalf("hang returned %v after %s, want a deadline after 5s", err, time.Since(start))
		}
		// Ending the open window by hand lets the next attempt through.
		if !in.EndAt(10 * time.Second) {
			t.Fatal("EndAt found no active window")
		}
		if _, ok := in.Active(11 * time.Second); ok {
			t.Fatal("window still active after EndAt")
		}
	})
}

func TestBadWindows(t *testing.T) {
	in := New(&okTransport{}, time.Now(), nil)
	err := in.Add(Window{Kind: "flood", From: 0, To: time.Second})
	if err == nil || !strings.Contains(err.Error(), "busy, hang") {
		t.Fatalf("unknown kind: %v, want an error listing busy, hang", err)
	}
	if err := in.Add(Window{Kind: "busy", From: 2 * time.Second, To: time.Second}); err == nil {
		t.Fatal("a window that ends before it starts was accepted")
	}
}
