package fakemodel

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

// BenchmarkBigEmailRequest serves one chat completion of a 3.9 MB email
// (as a client sends it, over the handler) and reports the bytes allocated
// per request relative to the body (alloc-x-body): the issue measured
// about 50 MB per concurrent request, 13 times the body.
func BenchmarkBigEmailRequest(b *testing.B) {
	email := bigEmail(7, 3_900_000)
	msg, _ := json.Marshal(email)
	body := `{"model":"gpt-5.4-mini","messages":[{"role":"system","content":"Triage this support email."},{"role":"user","content":` + string(msg) + `}]}`
	s := New(Options{NoLatency: true})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for b.Loop() {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		s.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("status %d: %s", rec.Code, rec.Body.String()[:200])
		}
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(body)), "alloc-x-body")
}

// TestBigEmailRequestMemoryBounded serves a valid 3.9 MB email and checks
// what one request allocates: the body as read, its message decoded once
// and the reading of the email's first ReadLimit bytes. The bound is three
// times the body (the body, the decoded text and slack for the rest); it
// measured 45 times the body when the reader read the whole email.
func TestBigEmailRequestMemoryBounded(t *testing.T) {
	saved := fastDecodeChecked
	fastDecodeChecked = nil // the test's decoder comparison allocates a decoding of its own
	defer func() { fastDecodeChecked = saved }()
	s := New(Options{NoLatency: true})
	serve := func(i int) {
		msg, _ := json.Marshal(bigEmail(i, 3_900_000))
		body := `{"model":"gpt-5.4-mini","messages":[{"role":"system","content":"Triage this support email."},{"role":"user","content":` + string(msg) + `}]}`
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s.ServeHTTP(rec, req)
		runtime.ReadMemStats(&after)
		if rec.Code != http.StatusOK {
			t.Fatalf("status %d: %.200s", rec.Code, rec.Body.String())
		}
		// Request 1 warms up: the token tables load once per process.
		if perBody := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(body)); i > 1 && perBody > 3 {
			t.Errorf("request %d allocated %.1f times its %d-byte body, want at most 3", i, perBody, len(body))
		}
	}
	for i := 1; i < 5; i++ {
		serve(i)
	}
}
