package fakemodel_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/triage"
)

// triageBody is the JSON body of the triage request for Marcus's email, as
// openai-go sends it, with extra top-level keys set (nil deletes a key).
func triageBody(t *testing.T, model string, extra map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(triage.Params(model, marcus(t)))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	for k, v := range extra {
		if v == nil {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	b, _ = json.Marshal(m)
	return b
}

func post(t *testing.T, url string, body []byte, contentType string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/v1/chat/completions", bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// sseChunks reads a stream's data lines up to [DONE], as raw JSON objects.
func sseChunks(t *testing.T, r io.Reader) []map[string]json.RawMessage {
	t.Helper()
	var out []map[string]json.RawMessage
	sc := bufio.NewScanner(r)
	done := false
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			done = true
			break
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			t.Fatalf("chunk %q: %v", data, err)
		}
		out = append(out, m)
	}
	if !done {
		t.Error("stream did not end with [DONE]")
	}
	return out
}

var requestID = regexp.MustCompile(`^req_[0-9a-f]{32}$`)

// TestRawStreamUsage: without include_usage no chunk has a usage field and
// every chunk has a choice; with it, every chunk but the last has
// "usage": null and the last has no choices and the usage.
func TestRawStreamUsage(t *testing.T) {
	ts := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true}))
	defer ts.Close()

	resp := post(t, ts.URL, triageBody(t, fakemodel.ModelMini, map[string]any{"stream": true}), "application/json")
	for i, c := range sseChunks(t, resp.Body) {
		if _, ok := c["usage"]; ok {
			t.Errorf("chunk %d has a usage field without include_usage: %s", i, c["usage"])
		}
		var choices []any
		json.Unmarshal(c["choices"], &choices)
		if len(choices) == 0 {
			t.Errorf("chunk %d has no choices without include_usage", i)
		}
	}

	resp = post(t, ts.URL, triageBody(t, fakemodel.ModelMini, map[string]any{"stream": true, "stream_options": map[string]any{"include_usage": true}}), "application/json")
	chunks := sseChunks(t, resp.Body)
	for i, c := range chunks[:len(chunks)-1] {
		if string(c["usage"]) != "null" {
			t.Errorf("chunk %d: usage %q, want null", i, c["usage"])
		}
	}
	last := chunks[len(chunks)-1]
	var u fakemodel.Usage
	if err := json.Unmarshal(last["usage"], &u); err != nil || u.TotalTokens == 0 || string(last["choices"]) != "[]" {
		t.Errorf("last chunk: usage %s, choices %s", last["usage"], last["choices"])
	}
}

func TestSDKStreamWithoutUsage(t *testing.T) {
	for name, c := range clients(t, fakemodel.Options{NoLatency: true}) {
		t.Run(name, func(t *testing.T) {
			stream := c.Chat.Completions.NewStreaming(context.Background(), triage.Params(fakemodel.ModelMini, marcus(t)))
			n := 0
			for stream.Next() {
				ch := stream.Current()
				if len(ch.Choices) == 0 {
					t.Fatalf("chunk %d has no choices: code reading choices[0] would crash", n)
				}
				if ch.JSON.Usage.Valid() {
					t.Errorf("chunk %d carries usage without include_usage", n)
				}
				n++
			}
			if err := stream.Err(); err != nil || n == 0 {
				t.Fatalf("%d chunks, %v", n, err)
			}
		})
	}
}

// TestRequestID: every response, errors included, carries x-request-id.
func TestRequestID(t *testing.T) {
	ts := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true}))
	defer ts.Close()
	seen := map[string]bool{}
	check := func(what string, resp *http.Response) {
		id := resp.Header.Get("X-Request-Id")
		if !requestID.MatchString(id) || seen[id] {
			t.Errorf("%s: x-request-id %q (want a fresh req_ and 32 hex digits)", what, id)
		}
		seen[id] = true
	}
	check("completion", post(t, ts.URL, triageBody(t, fakemodel.ModelMini, nil), "application/json"))
	check("stream", post(t, ts.URL, triageBody(t, fakemodel.ModelMini, map[string]any{"stream": true}), "application/json"))
	check("400", post(t, ts.URL, []byte(`{}`), "application/json"))
	check("415", post(t, ts.URL, []byte(`{}`), "text/plain"))
	for _, path := range []string{"/v1/models", "/v1/models/nope", "/nowhere", "/health"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		check(path, resp)
	}

	// Through openai-go: the header reaches the SDK's response.
	for name, c := range clients(t, fakemodel.Options{NoLatency: true}) {
		var raw *http.Response
		if _, err := c.Chat.Completions.New(context.Background(), triage.Params(fakemodel.ModelNano, marcus(t)), option.WithResponseInto(&raw)); err != nil {
			t.Fatal(err)
		}
		if !requestID.MatchString(raw.Header.Get("X-Request-Id")) {
			t.Errorf("%s: SDK response x-request-id %q", name, raw.Header.Get("X-Request-Id"))
		}
	}
}

// rejected lists requests OpenAI answers with 400, as changes to the triage
// request, with the param the error must name and a word of its message.
var rejected = []struct {
	name  string
	extra map[string]any
	param string
	word  string
}{
	{"strict schema without additionalProperties false", map[string]any{"response_format": map[string]any{"type": "json_schema",
		"json_schema": map[string]any{"name": "t", "strict": true, "schema": map[string]any{"type": "object",
			"properties": map[string]any{"intent": map[string]any{"type": "string"}}, "required": []string{"intent"}}}}},
		"response_format", "additionalProperties"},
	{"strict schema not requiring every property", map[string]any{"response_format": map[string]any{"type": "json_schema",
		"json_schema": map[string]any{"name": "t", "strict": true, "schema": map[string]any{"type": "object", "additionalProperties": false,
			"properties": map[string]any{"intent": map[string]any{"type": "string"}, "urgency": map[string]any{"type": "string"}}, "required": []string{"intent"}}}}},
		"response_format", "Missing 'urgency'"},
	{"strict nested object", map[string]any{"response_format": map[string]any{"type": "json_schema",
		"json_schema": map[string]any{"name": "t", "strict": true, "schema": map[string]any{"type": "object", "additionalProperties": false,
			"properties": map[string]any{"a": map[string]any{"type": "object", "properties": map[string]any{"b": map[string]any{"type": "string"}}}}, "required": []string{"a"}}}}},
		"response_format", "'properties', 'a'"},
	{"unknown parameter", map[string]any{"colour": "blue"}, "", "Unrecognized request argument supplied: colour"},
	{"temperature 9", map[string]any{"temperature": 9}, "temperature", "Expected a value <= 2, but got 9"},
	{"top_p -1", map[string]any{"top_p": -1}, "top_p", "below minimum"},
	{"n 0", map[string]any{"n": 0}, "n", "below minimum"},
	{"n 2.5", map[string]any{"n": 2.5}, "n", "integer"},
	{"max_completion_tokens 0", map[string]any{"max_completion_tokens": 0}, "max_completion_tokens", "below minimum"},
	{"stream_options without stream", map[string]any{"stream_options": map[string]any{"include_usage": true}}, "stream_options", "only allowed when 'stream' is enabled"},
	{"json_object without json", map[string]any{"response_format": map[string]any{"type": "json_object"},
		"messages": []any{map[string]any{"role": "user", "content": "Subject: tent\n\nWhere is my tent?"}}}, "messages", "must contain the word 'json'"},
	{"legacy functions", map[string]any{"functions": []any{map[string]any{"name": "f"}}, "function_call": "auto"}, "functions", "not supported by drill's fake model"},
	{"stream not a boolean", map[string]any{"stream": "yes"}, "stream", "boolean"},
}

func TestRawRejected(t *testing.T) {
	ts := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true}))
	defer ts.Close()
	for _, c := range rejected {
		t.Run(c.name, func(t *testing.T) {
			resp := post(t, ts.URL, triageBody(t, fakemodel.ModelMini, c.extra), "application/json")
			var e errBody
			if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != 400 || e.Error.Type != "invalid_request_error" || deref(e.Error.Param) != c.param || !strings.Contains(e.Error.Message, c.word) {
				t.Errorf("status %d, error %+v param %q; want 400 param %q saying %q", resp.StatusCode, e.Error, deref(e.Error.Param), c.param, c.word)
			}
		})
	}
}

func TestSDKRejected(t *testing.T) {
	for name, cl := range clients(t, fakemodel.Options{NoLatency: true}) {
		for _, c := range rejected {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				var opts []option.RequestOption
				for k, v := range c.extra {
					opts = append(opts, option.WithJSONSet(k, v))
				}
				_, err := cl.Chat.Completions.New(context.Background(), triage.Params(fakemodel.ModelMini, marcus(t)), opts...)
				var apiErr *openai.Error
				if !errors.As(err, &apiErr) {
					t.Fatalf("err %v, want *openai.Error", err)
				}
				if apiErr.StatusCode != 400 || apiErr.Param != c.param || !strings.Contains(apiErr.Message, c.word) {
					t.Errorf("got %d param %q %q", apiErr.StatusCode, apiErr.Param, apiErr.Message)
				}
			})
		}
	}
}

// TestN: n choices, streamed and not.
func TestN(t *testing.T) {
	for name, c := range clients(t, fakemodel.Options{NoLatency: true}) {
		t.Run(name, func(t *testing.T) {
			p := triage.Params(fakemodel.ModelMini, marcus(t))
			p.N = openai.Int(3)
			resp, err := c.Chat.Completions.New(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.Choices) != 3 {
				t.Fatalf("%d choices, want 3", len(resp.Choices))
			}
			for i, ch := range resp.Choices {
				if ch.Index != int64(i) {
					t.Errorf("choice %d has index %d", i, ch.Index)
				}
				if _, err := triage.Parse(ch.Message.Content); err != nil {
					t.Errorf("choice %d: %v", i, err)
				}
			}
			stream := c.Chat.Completions.NewStreaming(context.Background(), p)
			var acc openai.ChatCompletionAccumulator
			for stream.Next() {
				acc.AddChunk(stream.Current())
			}
			if stream.Err() != nil || len(acc.Choices) != 3 {
				t.Fatalf("streamed: %v, %d choices", stream.Err(), len(acc.Choices))
			}
			for i, ch := range acc.Choices {
				if ch.Message.Content != resp.Choices[0].Message.Content {
					t.Errorf("streamed choice %d %q", i, ch.Message.Content)
				}
			}
		})
	}
}

// TestMaxCompletionTokens: a limit below the answer's length cuts it and
// says so; the cut answer does not parse.
func TestMaxCompletionTokens(t *testing.T) {
	for name, c := range clients(t, fakemodel.Options{NoLatency: true}) {
		t.Run(name, func(t *testing.T) {
			p := triage.Params(fakemodel.ModelMini, marcus(t))
			p.MaxCompletionTokens = openai.Int(1)
			resp, err := c.Chat.Completions.New(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			ch := resp.Choices[0]
			if ch.FinishReason != "length" || resp.Usage.CompletionTokens != 1 {
				t.Errorf("finish %q, %d completion tokens; want length, 1", ch.FinishReason, resp.Usage.CompletionTokens)
			}
			if _, err := triage.Parse(ch.Message.Content); !triage.IsInvalid(err) {
				t.Errorf("cut answer %q parsed: %v", ch.Message.Content, err)
			}
			stream := c.Chat.Completions.NewStreaming(context.Background(), p)
			var acc openai.ChatCompletionAccumulator
			for stream.Next() {
				acc.AddChunk(stream.Current())
			}
			if stream.Err() != nil || acc.Choices[0].FinishReason != "length" || acc.Choices[0].Message.Content != ch.Message.Content {
				t.Errorf("streamed: %v %+v", stream.Err(), acc.Choices)
			}
			// A generous limit changes nothing.
			p.MaxCompletionTokens = openai.Int(500)
			resp, err = c.Chat.Completions.New(context.Background(), p)
			if err != nil || resp.Choices[0].FinishReason != "stop" {
				t.Errorf("limit 500: %v %+v", err, resp)
			}
		})
	}
}

// TestNotATriage: a prompt that is not a triage request gets a short plain
// answer.
func TestNotATriage(t *testing.T) {
	for name, c := range clients(t, fakemodel.Options{NoLatency: true}) {
		t.Run(name, func(t *testing.T) {
			resp, err := c.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
				Model:    shared.ChatModel(fakemodel.ModelNano),
				Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Write me a haiku about tents.")},
			})
			if err != nil {
				t.Fatal(err)
			}
			got := resp.Choices[0].Message.Content
			if strings.HasPrefix(got, "{") || !strings.Contains(got, "fake model") || len(got) > 400 {
				t.Errorf("answer %q, want a short plain sentence", got)
			}
		})
	}
}

// TestContentType415: a non-JSON content type is refused as OpenAI does.
func TestContentType415(t *testing.T) {
	ts := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true}))
	defer ts.Close()
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"} {
		resp := post(t, ts.URL, triageBody(t, fakemodel.ModelMini, nil), ct)
		var e errBody
		json.NewDecoder(resp.Body).Decode(&e)
		if resp.StatusCode != http.StatusUnsupportedMediaType || deref(e.Error.Code) != "unsupported_content_type" {
			t.Errorf("%s: status %d %+v", ct, resp.StatusCode, e.Error)
		}
	}
	if resp := post(t, ts.URL, triageBody(t, fakemodel.ModelMini, nil), "application/json; charset=utf-8"); resp.StatusCode != 200 {
		t.Errorf("application/json; charset=utf-8: %d", resp.StatusCode)
	}
}

func TestHealthAndLog(t *testing.T) {
	var log syncBuffer
	ts := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true, RequireKey: "sekret", Log: &log}))
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/health")
	if err != nil {
		t.Fatal(err)
	}
	var h struct {
		Status string   `json:"status"`
		Models []string `json:"models"`
	}
	json.NewDecoder(resp.Body).Decode(&h)
	resp.Body.Close()
	if resp.StatusCode != 200 || h.Status != "ok" || len(h.Models) != 2 {
		t.Errorf("health: %d %+v", resp.StatusCode, h)
	}
	c := openai.NewClient(option.WithBaseURL(ts.URL+"/v1/"), option.WithAPIKey("sekret"))
	if _, err := c.Chat.Completions.New(context.Background(), triage.Params(fakemodel.ModelMini, marcus(t))); err != nil {
		t.Fatal(err)
	}
	post(t, ts.URL, []byte(`{}`), "application/json") // no key: 401
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("log has %d lines, want one per request:\n%s", len(lines), log.String())
	}
	if !strings.Contains(lines[0], "GET /health status=200") ||
		!regexp.MustCompile(`req_[0-9a-f]{32} POST /v1/chat/completions model=gpt-5.4-mini stream=false status=200 prompt_tokens=\d+ completion_tokens=\d+ duration=`).MatchString(lines[1]) ||
		!strings.Contains(lines[2], "status=401") {
		t.Errorf("log lines:\n%s", log.String())
	}
	if strings.Contains(log.String(), "sekret") || strings.Contains(log.String(), "Marcus") {
		t.Error("the log holds the key or the email text")
	}
}

// TestRawNTruncatePlain: n choices, max_completion_tokens and a prompt that
// is not a triage request, over raw HTTP.
func TestRawNTruncatePlain(t *testing.T) {
	ts := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true}))
	defer ts.Close()
	var c struct {
		Choices []struct {
			Index   int `json:"index"`
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage fakemodel.Usage `json:"usage"`
	}
	resp := post(t, ts.URL, triageBody(t, fakemodel.ModelMini, map[string]any{"n": 3}), "application/json")
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || len(c.Choices) != 3 || c.Choices[2].Index != 2 {
		t.Fatalf("n=3: %v %+v", err, c)
	}
	one := c.Usage.CompletionTokens / 3

	resp = post(t, ts.URL, triageBody(t, fakemodel.ModelMini, map[string]any{"max_completion_tokens": 3}), "application/json")
	c.Choices = nil
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || len(c.Choices) != 1 {
		t.Fatal(err)
	}
	if ch := c.Choices[0]; ch.FinishReason != "length" || c.Usage.CompletionTokens != 3 || one <= 3 || json.Valid([]byte(ch.Message.Content)) {
		t.Errorf("max_completion_tokens 3: finish %q, %d tokens (full answer %d), content %q", ch.FinishReason, c.Usage.CompletionTokens, one, ch.Message.Content)
	}

	body := []byte(`{"model":"gpt-5.4-nano","messages":[{"role":"user","content":"What is the capital of France?"}]}`)
	resp = post(t, ts.URL, body, "application/json")
	c.Choices = nil
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || len(c.Choices) != 1 {
		t.Fatal(err)
	}
	if got := c.Choices[0].Message.Content; strings.HasPrefix(got, "{") || !strings.Contains(got, "only triage support emails") {
		t.Errorf("plain prompt answered %q", got)
	}
}
