package fakemodel

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"reflect"
	"sync"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/triage"
)

// agreement counts what the request path did with every body the server
// decoded while the package's tests ran, and where the fast path and the
// strict validator disagreed.
var agreement struct {
	sync.Mutex
	fast, declined int
	disagreements  []string
}

// compareDecoders is the server's decoding hook in tests: every body the
// fast path took must be accepted by DecodeRequest with the same result.
func compareDecoders(body []byte, fast *ChatRequest) {
	if fast == nil {
		agreement.Lock()
		agreement.declined++
		agreement.Unlock()
		return
	}
	strict, apiErr := DecodeRequest(body)
	agreement.Lock()
	defer agreement.Unlock()
	agreement.fast++
	switch {
	case apiErr != nil:
		agreement.disagreements = append(agreement.disagreements,
			fmt.Sprintf("the fast path took %.300q; DecodeRequest refused it: %s", body, apiErr.Message))
	case !reflect.DeepEqual(fast, strict):
		agreement.disagreements = append(agreement.disagreements,
			fmt.Sprintf("%.300q: the fast path decoded %+v, DecodeRequest %+v", body, *fast, *strict))
	}
}

// TestMain runs every test of the package (the fidelity suite included)
// with the decoding hook on, and fails the run if the fast path and the
// strict validator disagreed on any request the tests sent. Benchmarks run
// without the hook, which would double what they measure.
func TestMain(m *testing.M) {
	flag.Parse()
	if flag.Lookup("test.bench").Value.String() == "" {
		fastDecodeChecked = compareDecoders
	}
	code := m.Run()
	if len(agreement.disagreements) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the fast decoder and DecodeRequest disagreed on %d of %d requests:\n",
			len(agreement.disagreements), agreement.fast)
		for i, d := range agreement.disagreements {
			if i == 5 {
				fmt.Fprintln(os.Stderr, "  ...")
				break
			}
			fmt.Fprintln(os.Stderr, "  "+d)
		}
		code = 1
	}
	os.Exit(code)
}

// sdkBodies returns the bodies openai-go sends for drill's triage
// requests: every email to every model, plain, streamed with and without
// usage, with a token limit and with n. They are captured on the way to
// the in-process server, which answers each one.
func sdkBodies(t *testing.T) [][]byte {
	t.Helper()
	var (
		mu     sync.Mutex
		bodies [][]byte
	)
	srv := New(Options{NoLatency: true})
	capture := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		rc, err := r.GetBody()
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(rc)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		bodies = append(bodies, b)
		mu.Unlock()
		return srv.Transport().RoundTrip(r)
	})
	c := openai.NewClient(option.WithBaseURL("http://fake/v1/"), option.WithAPIKey("k"),
		option.WithHTTPClient(&http.Client{Transport: capture}), option.WithMaxRetries(0))
	ctx := context.Background()
	for _, model := range Models() {
		for i, e := range emails.All() {
			p := triage.Params(model, e)
			switch i % 4 {
			case 1:
				p.MaxCompletionTokens = openai.Int(int64(5 + i))
			case 2:
				p.N = openai.Int(2)
			}
			if _, err := c.Chat.Completions.New(ctx, p); err != nil {
				t.Fatalf("email %d, %s: %v", e.ID, model, err)
			}
			if i%3 == 0 {
				if i%2 == 0 {
					p.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
				}
				s := c.Chat.Completions.NewStreaming(ctx, p)
				for s.Next() {
				}
				if err := s.Err(); err != nil {
					t.Fatalf("email %d, %s, streamed: %v", e.ID, model, err)
				}
			}
		}
	}
	return bodies
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestFastDecodeTakesSDKShapes checks that the fast path decodes every
// request openai-go sends for drill, exactly as DecodeRequest does: if it
// declined them, the request path would gain nothing.
func TestFastDecodeTakesSDKShapes(t *testing.T) {
	bodies := sdkBodies(t)
	if len(bodies) < 2*len(emails.All()) {
		t.Fatalf("captured %d bodies", len(bodies))
	}
	streamed := 0
	for _, body := range bodies {
		fast, ok := decodeFast(body)
		if !ok {
			t.Fatalf("the fast path declined an SDK request: %.400s", body)
		}
		strict, apiErr := DecodeRequest(body)
		if apiErr != nil {
			t.Fatalf("DecodeRequest refused an SDK request: %s", apiErr.Message)
		}
		if !reflect.DeepEqual(fast, strict) {
			t.Fatalf("%.300s: fast %+v, strict %+v", body, *fast, *strict)
		}
		if fast.Stream {
			streamed++
		}
	}
	if streamed == 0 {
		t.Error("no streamed request was captured")
	}
}

// fastEdgeCases are bodies near the edge of what the fast path takes: each
// must be decoded as DecodeRequest does or left to it.
var fastEdgeCases = []string{
	`{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"hi"}]}`,
	` {"messages":[{"content":"hi","role":"user"}] , "model":"gpt-5.4-mini" } `,
	`{"model":"m","messages":[{"role":"user","content":"a\"b\\c\/d\b\f\n\r\t\u00e9\u20ac\ud83d\ude00 <&> \u003c"}]}`,
	`{"model":"m","messages":[{"role":"user","content":"lone \ud83d surrogate"}]}`,
	`{"model":"m","messages":[{"role":"user","content":"low first \ude00\ud83d"}]}`,
	`{"model":"m","messages":[{"role":"user","content":"bad \x escape"}]}`,
	"{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"invalid \xff utf-8\"}]}",
	"{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"raw \x01 control\"}]}",
	`{"model":"m","messages":[{"role":"user","content":"héllo ünïcode ✓"}]}`,
	`{"model":"m","model":"n","messages":[{"role":"user","content":"dup"}]}`,
	`{"model":"m","messages":[{"role":"user","role":"system","content":"dup role"}]}`,
	`{"mod\u0065l":"m","messages":[{"role":"user","content":"escaped key"}]}`,
	`{"model":"m","messages":[{"role":"tool","content":"tool"}]}`,
	`{"model":"m","messages":[{"role":"user","content":"x","name":"n"}]}`,
	`{"model":"m","messages":[{"role":"assistant","content":null}]}`,
	`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"parts"}]}]}`,
	`{"model":"","messages":[{"role":"user","content":"x"}]}`,
	`{"model":"m","messages":[]}`,
	`{"model":"m"}`,
	`{}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}]} trailing`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"n":3,"max_tokens":9,"max_completion_tokens":7}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"max_tokens":5,"max_completion_tokens":7}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"n":0}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"n":129}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"n":2.0}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"n":02}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"n":-1}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"max_tokens":99999999999}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"stream":true,"stream_options":{"include_usage":true}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"stream_options":{"include_usage":true},"stream":true}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"stream_options":{"include_usage":true}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"stream":false,"stream_options":{}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"stream":null}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"text"}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_object"}}`,
	`{"model":"m","messages":[{"role":"user","content":"answer in JSON"}],"response_format":{"type":"json_object"}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":null}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":"text"}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"a","strict":true,"schema":{"type":"object","properties":{"intent":{"type":"string"}}}}}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"a","strict":true,"schema":{"type":"object","properties":{"intent":{"type":"string"}},"required":["intent"],"additionalProperties":false}}}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"a","schema":{"type":"object","properties":{"a\"}":{"type":"string"}}}}}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"a"}}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema"]}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"temperature":0.5}`,
	`{"model":"m","messages":[{"role":"user","content":"x"}],"tools":[]}`,
}

// TestFastDecodeEdgeCases checks the edge cases: the fast path may decline
// any of them, but what it takes it decodes as DecodeRequest does.
func TestFastDecodeEdgeCases(t *testing.T) {
	took := 0
	for _, s := range fastEdgeCases {
		if checkFastAgrees(t, []byte(s)) {
			took++
		}
	}
	// The first cases, the SDK's plain shapes with escapes and Unicode,
	// must be taken: a fast path that declines everything agrees trivially.
	for _, s := range fastEdgeCases[:3] {
		if _, ok := decodeFast([]byte(s)); !ok {
			t.Errorf("the fast path declined %s", s)
		}
	}
	t.Logf("the fast path took %d of %d edge cases", took, len(fastEdgeCases))
}

// checkFastAgrees fails t if the fast path takes body and DecodeRequest
// refuses it or decodes it differently; it reports whether it was taken.
func checkFastAgrees(t *testing.T, body []byte) bool {
	t.Helper()
	fast, ok := decodeFast(body)
	if !ok {
		if fast != nil {
			t.Fatalf("%q: declined with a request", body)
		}
		return false
	}
	strict, apiErr := DecodeRequest(body)
	if apiErr != nil {
		t.Fatalf("the fast path took %q; DecodeRequest refused it: %s", body, apiErr.Message)
	}
	if !reflect.DeepEqual(fast, strict) {
		t.Fatalf("%q: fast %+v, strict %+v", body, *fast, *strict)
	}
	return true
}

// FuzzFastDecode checks the fast path against DecodeRequest on any body.
func FuzzFastDecode(f *testing.F) {
	for _, s := range fastEdgeCases {
		f.Add([]byte(s))
	}
	e, _ := emails.ByID(35)
	b, err := json.Marshal(triage.Params(ModelMini, e))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, body []byte) { checkFastAgrees(t, body) })
}
