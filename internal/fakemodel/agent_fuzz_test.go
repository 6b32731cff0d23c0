package fakemodel_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/fakemodel"
)

// FuzzAgent: the handler answers every tool-calling request DecodeRequest
// accepts, whatever the tool results, calls and choices hold.
func FuzzAgent(f *testing.F) {
	tools := `"tools":[{"type":"function","function":{"name":"get_order","parameters":{"type":"object","properties":{"order_id":{"type":"string"}}}}},{"type":"function","function":{"name":"get_delivery_status"}}]`
	for _, s := range []string{
		`{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"Subject: x\n\nwhere is order 123456?"}],` + tools + `}`,
		`{"model":"gpt-5.4-mini","tool_choice":"none","messages":[{"role":"user","content":"hello"}],` + tools + `}`,
		`{"model":"gpt-5.4-nano","stream":true,"tool_choice":"required","messages":[{"role":"user","content":"order DR-104233"},{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"get_order","arguments":"{"}}]},{"role":"tool","tool_call_id":"a","content":"{\"error\":\"timeout\"}"}],` + tools + `}`,
		`{"model":"gpt-5.4-mini","tool_choice":{"type":"function","function":{"name":"get_delivery_status"}},"messages":[{"role":"user","content":"x"},{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"nope","arguments":"[]"}}]},{"role":"tool","tool_call_id":"a","content":"[1,2]"}],` + tools + `}`,
		`{"model":"gpt-5.4-mini","parallel_tool_calls":false,"messages":[{"role":"user","content":"tracking DR-104233"},{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"get_order","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":"{\"order_id\":7,\"product\":null}"}],` + tools + `}`,
		`{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"x"},{"role":"tool","tool_call_id":"z","content":"unavailable"}],` + tools + `}`,
	} {
		f.Add([]byte(s))
	}
	srv := fakemodel.New(fakemodel.Options{NoLatency: true})
	f.Fuzz(func(t *testing.T, body []byte) {
		req, apiErr := fakemodel.DecodeRequest(body)
		if apiErr != nil {
			return
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/chat/completions", strings.NewReader(string(body))))
		if rec.Code != 200 && rec.Code != 404 {
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body)
		}
		if rec.Code == 200 && len(req.Tools) > 0 && !req.Stream && !strings.Contains(rec.Body.String(), `"finish_reason"`) {
			t.Fatalf("no finish_reason in %s", rec.Body)
		}
	})
}
