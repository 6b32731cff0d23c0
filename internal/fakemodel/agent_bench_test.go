package fakemodel_test

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http/httptest"
	"testing"

	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/tools"
)

// BenchmarkAgentServeHTTP measures the handler alone on the agent's
// heaviest good-path request: the fourth call of a conversation (the
// customer's email, two tool calls and their results, the tool
// definitions), not streamed, no latency. A chat drill of 1,000
// conversations makes about 4,000 such calls.
func BenchmarkAgentServeHTTP(b *testing.B) { benchmarkAgent(b, nil) }

// BenchmarkAgentServeHTTPStreamed is BenchmarkAgentServeHTTP streamed with
// the usage, as the chat workload always asks: the reply in chunks of
// about three tokens, each its own event.
func BenchmarkAgentServeHTTPStreamed(b *testing.B) {
	benchmarkAgent(b, map[string]any{"stream": true, "stream_options": map[string]any{"include_usage": true}})
}

// benchmarkAgent measures the handler on the agent's fourth call, with
// more members in the request.
func benchmarkAgent(b *testing.B, more map[string]any) {
	srv := fakemodel.New(fakemodel.Options{NoLatency: true})
	order := `{"order_id":"DR-104233","product":"Ember 5 Sleeping Bag","status":"shipped","placed":"2026-11-15"}`
	delivery := `{"order_id":"DR-104233","carrier":"Parcelway","status":"in_transit","eta":"2026-11-20","last_update":"2026-11-17"}`
	var defs []any
	d, _ := json.Marshal(tools.Definitions())
	json.Unmarshal(d, &defs)
	req := map[string]any{
		"model": fakemodel.ModelMini,
		"tools": defs,
		"messages": []any{
			map[string]any{"role": "system", "content": "You are the shop's support agent."},
			map[string]any{"role": "user", "content": "Subject: Return - Ember bag\n\nI'd like to return the Ember 5 sleeping bag from order DR-104233. It's too warm.\n\nThanks,\nPriya"},
			map[string]any{"role": "assistant", "content": "Reading the customer's message: intent return, urgency normal, order DR-104233."},
			assistantCall("call_a", "get_order"), toolMsg("call_a", order),
			assistantCall("call_b", "get_delivery_status"), toolMsg("call_b", delivery),
		},
	}
	maps.Copy(req, more)
	body, _ := json.Marshal(req)
	// One request first, as the other handler benchmarks: the encoding's
	// one-time load (tokens.go) and the first decoding of the tool
	// definitions are not a call's cost.
	srv.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/v1/chat/completions", bytes.NewReader(body)))
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
