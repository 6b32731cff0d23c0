package fakemodel_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/cputime"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/triage"
)

// BenchmarkFakeModelLoopback measures the fake model's own cost per request:
// zero latency, non-streamed, through openai-go over loopback. Allocations
// include the client's.
func BenchmarkFakeModelLoopback(b *testing.B) {
	ts := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true}))
	defer ts.Close()
	c := openai.NewClient(option.WithBaseURL(ts.URL+"/v1/"), option.WithAPIKey("k"),
		option.WithHTTPClient(&http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}))
	all := emails.All()
	params := make([]openai.ChatCompletionNewParams, len(all))
	for i, e := range all {
		params[i] = triage.Params(fakemodel.ModelMini, e)
	}
	ctx := context.Background()
	// One call first: the encoding's one-time load (tokens.go) is not a
	// request's cost.
	if _, err := c.Chat.Completions.New(ctx, params[0]); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if _, err := c.Chat.Completions.New(ctx, params[i%len(params)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// BenchmarkFakeModelInProcess is the same call through openai-go and the
// in-process Transport: no sockets.
func BenchmarkFakeModelInProcess(b *testing.B) {
	srv := fakemodel.New(fakemodel.Options{NoLatency: true})
	hc := &http.Client{Transport: srv.Transport()}
	c := openai.NewClient(option.WithBaseURL("http://fake/v1/"), option.WithAPIKey("k"), option.WithHTTPClient(hc))
	e, _ := emails.ByID(35)
	p := triage.Params(fakemodel.ModelMini, e)
	// One call first: the encoding's one-time load is not a call's cost.
	if _, err := c.Chat.Completions.New(context.Background(), p); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := cputime.Self()
	for b.Loop() {
		if _, err := c.Chat.Completions.New(context.Background(), p); err != nil {
			b.Fatal(err)
		}
	}
	// The process's CPU a call (the collector's included): the floor under
	// any drill that makes each email's call through the real SDK.
	b.ReportMetric(float64((cputime.Self()-cpu).Microseconds())/float64(b.N), "cpu-µs/call")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// BenchmarkServeHTTP measures the handler alone: a pre-encoded request (the
// triage prompt for email 35), no client and no sockets.
func BenchmarkServeHTTP(b *testing.B) {
	srv := fakemodel.New(fakemodel.Options{NoLatency: true})
	e, _ := emails.ByID(35)
	body, err := json.Marshal(triage.Params(fakemodel.ModelMini, e))
	if err != nil {
		b.Fatal(err)
	}
	// One request first: the encoding's one-time load is not a request's
	// cost.
	warm := httptest.NewRecorder()
	srv.ServeHTTP(warm, httptest.NewRequest("POST", "/v1/chat/completions", bytes.NewReader(body)))
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/chat/completions", bytes.NewReader(body)))
		if rec.Code != 200 {
			b.Fatal(rec.Code, rec.Body)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}
