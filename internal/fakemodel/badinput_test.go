package fakemodel_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/fakemodel"
)

type errBody struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

func TestBadInput(t *testing.T) {
	ts := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true, RequireKey: "k"}))
	defer ts.Close()
	good := `{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"Subject: x\n\nwhere is order 123456?"}]}`
	for _, c := range []struct {
		name, method, path, key, body string
		status                        int
		code, param                   string
	}{
		{"malformed body", "POST", "/v1/chat/completions", "k", `{"model": "gpt-5.4-mini", "messages": [`, 400, "", ""},
		{"not an object", "POST", "/v1/chat/completions", "k", `[1,2,3]`, 400, "", ""},
		{"missing messages", "POST", "/v1/chat/completions", "k", `{"model":"gpt-5.4-mini"}`, 400, "missing_required_parameter", "messages"},
		{"empty messages", "POST", "/v1/chat/completions", "k", `{"model":"gpt-5.4-mini","messages":[]}`, 400, "empty_array", "messages"},
		{"missing model", "POST", "/v1/chat/completions", "k", `{"messages":[{"role":"user","content":"hi"}]}`, 400, "missing_required_parameter", "model"},
		{"bad role", "POST", "/v1/chat/completions", "k", `{"model":"gpt-5.4-mini","messages":[{"role":"boss","content":"hi"}]}`, 400, "invalid_value", "messages[0].role"},
		{"bad format", "POST", "/v1/chat/completions", "k", `{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"yaml"}}`, 400, "invalid_value", "response_format.type"},
		{"unknown model", "POST", "/v1/chat/completions", "k", `{"model":"gpt-nope","messages":[{"role":"user","content":"hi"}]}`, 404, "model_not_found", "model"},
		{"missing key", "POST", "/v1/chat/completions", "", good, 401, "invalid_api_key", ""},
		{"wrong key", "POST", "/v1/chat/completions", "nope", good, 401, "invalid_api_key", ""},
		{"wrong method", "GET", "/v1/chat/completions", "k", "", 405, "", ""},
		{"unknown path", "POST", "/v1/embeddings", "k", good, 404, "unknown_url", ""},
		{"unknown model get", "GET", "/v1/models/gpt-nope", "k", "", 404, "model_not_found", "model"},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, ts.URL+c.path, strings.NewReader(c.body))
			req.Header.Set("Content-Type", "application/json")
			if c.key != "" {
				req.Header.Set("Authorization", "Bearer "+c.key)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.status {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, c.status, b)
			}
			var eb errBody
			if err := json.Unmarshal(b, &eb); err != nil || eb.Error.Message == "" || eb.Error.Type == "" {
				t.Fatalf("not an OpenAI error: %s (%v)", b, err)
			}
			if got := deref(eb.Error.Code); got != c.code {
				t.Errorf("code %q, want %q", got, c.code)
			}
			if got := deref(eb.Error.Param); got != c.param {
				t.Errorf("param %q, want %q", got, c.param)
			}

			// The server keeps serving.
			ok, _ := http.NewRequest("POST", ts.URL+"/v1/chat/completions", strings.NewReader(good))
			ok.Header.Set("Authorization", "Bearer k")
			resp, err = http.DefaultClient.Do(ok)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("after a bad request, a good one got %d", resp.StatusCode)
			}
		})
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		`{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"hi"}]}`,
		`{"model":"gpt-5.4-nano","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"system","content":"rules"},{"role":"user","content":[{"type":"text","text":"Subject: x\n\nURGENT order DR-123456"}]}]}`,
		`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"a","strict":true,"schema":{"type":"object","properties":{"intent":{"type":"string"}}}}}}`,
		`{"model":"m","messages":[{"role":"assistant","content":null}],"response_format":{"type":"json_object"}}`,
		`{"model":"gpt-5.4-mini"}`,
		`{"messages":[]}`,
		`{"model":1,"messages":{}}`,
		`{"model":"m","messages":[null]}`,
		`{"model":"m","messages":[{"role":"user","content":5}]}`,
		`null`, `[]`, ``, `{`, `{"model":"m"} {}`, "\xff\xfe",
	} {
		f.Add([]byte(s))
	}
	srv := fakemodel.New(fakemodel.Options{NoLatency: true})
	f.Fuzz(func(t *testing.T, body []byte) {
		req, apiErr := fakemodel.DecodeRequest(body)
		if (req == nil) == (apiErr == nil) {
			t.Fatalf("DecodeRequest(%q) = %v, %v: want exactly one", body, req, apiErr)
		}
		if apiErr != nil {
			if apiErr.Status != 400 || apiErr.Message == "" || apiErr.Type != "invalid_request_error" {
				t.Fatalf("bad error %+v", apiErr)
			}
			return
		}
		if req.Model == "" || len(req.Messages) == 0 {
			t.Fatalf("accepted a request without model or messages: %q", body)
		}
		// The whole handler must answer anything DecodeRequest accepts.
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/chat/completions", strings.NewReader(string(body))))
		if rec.Code != 200 && rec.Code != 404 {
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body)
		}
	})
}
