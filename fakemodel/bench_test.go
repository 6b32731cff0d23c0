package fakemodel_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/fakemodel"
	"github.com/drill-dev/drill/triage"
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

// BenchmarkHandler measures the handler alone, without client or sockets.
func BenchmarkHandler(b *testing.B) {
	srv := fakemodel.New(fakemodel.Options{NoLatency: true})
	hc := &http.Client{Transport: srv.Transport()}
	c := openai.NewClient(option.WithBaseURL("http://fake/v1/"), option.WithAPIKey("k"), option.WithHTTPClient(hc))
	e, _ := emails.ByID(35)
	p := triage.Params(fakemodel.ModelMini, e)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Chat.Completions.New(context.Background(), p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}
