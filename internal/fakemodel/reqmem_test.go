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
