package workload

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/price"
	"github.com/drill-dev/drill/internal/sse"
)

// readUsage reads body through a usageBody, closing it after n bytes (all
// of it when n < 0), and returns what it reported.
func readUsage(t *testing.T, body string, stream bool, n int) (in, out int, reported bool, received int64) {
	t.Helper()
	calls := 0
	b := newUsageBody(io.NopCloser(strings.NewReader(body)), stream,
		func(i, o int, r bool, rec int64) { in, out, reported, received = i, o, r, rec; calls++ })
	var err error
	if n < 0 {
		_, err = io.Copy(io.Discard, b)
	} else {
		_, err = io.CopyN(io.Discard, b, int64(n))
	}
	if err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	_ = b.Close()
	if calls != 1 {
		t.Fatalf("done called %d times, want once", calls)
	}
	return in, out, reported, received
}

func TestUsageBodyReadsTheProvidersUsage(t *testing.T) {
	in, out, ok, _ := readUsage(t, `{"id":"x","choices":[{"message":{"content":"hi"}}],"usage":{"prompt_tokens":120,"completion_tokens":34,"total_tokens":154}}`, false, -1)
	if !ok || in != 120 || out != 34 {
		t.Errorf("answer: %d/%d reported %v", in, out, ok)
	}
	stream := "data: {\"choices\":[{\"delta\":{\"content\":\"abcd\"}}],\"usage\":null}\n\n" +
		"data: {\"choices\":[{\"delta\":{\"content\":\"efghijkl\"}}],\"usage\":null}\n\n" +
		"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":50,\"completion_tokens\":3}}\n\ndata: [DONE]\n\n"
	if in, out, ok, _ := readUsage(t, stream, true, -1); !ok || in != 50 || out != 3 {
		t.Errorf("stream: %d/%d reported %v", in, out, ok)
	}
	// A stream broken off after its first chunk: no usage, 4 bytes of content.
	first := len("data: {\"choices\":[{\"delta\":{\"content\":\"abcd\"}}],\"usage\":null}\n\n")
	if _, _, ok, rec := readUsage(t, stream, true, first+5); ok || rec != 4 {
		t.Errorf("broken stream: reported %v, content %d bytes, want 4", ok, rec)
	}
}

func TestMeterAbortsBeforeTheSpendIsExceeded(t *testing.T) {
	var reason string
	m := newMeter(price.Table{"m": {InPerM: 1e6, OutPerM: 0}}, 10, func(r string) { reason = r }) // 1 a token
	res, err := m.admit("m", 4*4, 0)                                                              // 4 tokens: 4
	if err != nil || res != 4 {
		t.Fatalf("first: %v %v", res, err)
	}
	m.settle("m", res, m.usage("m", 5, 0, false))   // it cost 5
	if _, err := m.admit("m", 4*4, 0); err != nil { // 5 + 4 = 9
		t.Fatal(err)
	}
	// 5 spent + 4 in flight + 4 would be 13 > 10: refused, the run aborted.
	if _, err := m.admit("m", 4*4, 0); !errors.Is(err, ErrMaxSpend) || !strings.Contains(reason, "max spend") {
		t.Errorf("err %v, reason %q", err, reason)
	}
	if u := m.usage("x", 10, 10, true); u.Priced || u.Cost != 0 || !u.Estimated {
		t.Errorf("unpriced model usage %+v", u)
	}
}

func TestRequestInfoReadsSizeAndOutputLimit(t *testing.T) {
	body := `{"model":"m","max_completion_tokens":77,"messages":[]}`
	req, err := http.NewRequest(http.MethodPost, "http://x/v1/chat/completions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if size, out := requestInfo(req, true); size != int64(len(body)) || out != 77 {
		t.Errorf("size %d out %d", size, out)
	}
	if size, out := requestInfo(req, false); size != int64(len(body)) || out != 0 {
		t.Errorf("without a limit: size %d out %d", size, out)
	}
}

// TestUsageOfAgreesWithUnmarshal checks usageOf against what it replaced:
// json.Unmarshal of the whole answer into struct{ Usage *sse.Usage }.
func TestUsageOfAgreesWithUnmarshal(t *testing.T) {
	for _, body := range []string{
		`{"id":"x","choices":[{"message":{"content":"hi"}}],"usage":{"prompt_tokens":120,"completion_tokens":34,"total_tokens":154}}`,
		`{"usage":{"prompt_tokens":1,"completion_tokens":2},"choices":[]}`,
		`{ "usage" : { "prompt_tokens" : 7 , "completion_tokens" : 8 } }`,
		`{"Usage":{"prompt_tokens":3,"completion_tokens":4}}`,
		`{"usage":{"prompt_tokens":1,"completion_tokens":1},"usage":{"prompt_tokens":5,"completion_tokens":6}}`,
		`{"usage":null}`,
		`{"usage":{"prompt_tokens":"many"}}`,
		`{"usage":[1,2]}`,
		`{"usage":3}`,
		`{"choices":[{"message":{"content":"\"usage\":{\"prompt_tokens\":9}","usage":{"prompt_tokens":9,"completion_tokens":9}}}]}`,
		`{"note":"usage","x":{"usage":{"prompt_tokens":9,"completion_tokens":9}}}`,
		`{"a":"\\","usage":{"prompt_tokens":2,"completion_tokens":3}}`,
		`{"usage":{"prompt_tokens":1,"completion_tokens":2}`,
		`not json`,
		``,
		`[{"usage":{"prompt_tokens":1,"completion_tokens":2}}]`,
	} {
		var want struct {
			Usage *sse.Usage `json:"usage"`
		}
		if json.Unmarshal([]byte(body), &want) != nil {
			want.Usage = nil
		}
		got := usageOf([]byte(body))
		if (got == nil) != (want.Usage == nil) || (got != nil && *got != *want.Usage) {
			t.Errorf("%s: usageOf %+v, json.Unmarshal %+v", body, got, want.Usage)
		}
	}
}

// TestPlainUsageAgreesWithUnmarshal checks that wherever plainUsage reads
// a usage value it gives json.Unmarshal's counts, and that it reads the
// usual shape itself.
func TestPlainUsageAgreesWithUnmarshal(t *testing.T) {
	read := 0
	for _, v := range []string{
		`{"prompt_tokens":1234,"completion_tokens":56,"total_tokens":1290}`,
		` { "completion_tokens" : 0 , "prompt_tokens" : 7 } `,
		`{"prompt_tokens":5}`,
		`{"total_tokens":5}`,
		`{"prompt_tokens":999999999999999999,"completion_tokens":1}`,
		`{"prompt_tokens":9999999999999999999}`,
		`{"prompt_tokens":1,"prompt_tokens":2}`,
		`{"Prompt_Tokens":3}`,
		`{"prompt_tokens":-1}`,
		`{"prompt_tokens":1.0}`,
		`{"prompt_tokens":1e3}`,
		`{"prompt_tokens":null}`,
		`{"prompt_tokens":"1"}`,
		`{"prompt_tokens":1,"cached":{"a":1}}`,
		`{"prompt\u005ftokens":4}`,
		`{}`,
		`[]`,
	} {
		u, ok := plainUsage([]byte(v))
		if !ok {
			continue
		}
		read++
		var want sse.Usage
		if err := json.Unmarshal([]byte(v), &want); err != nil || u != want {
			t.Errorf("%s: plainUsage %+v, json.Unmarshal %+v (%v)", v, u, want, err)
		}
	}
	if read < 5 {
		t.Errorf("plainUsage read %d of the usual values, want at least 5", read)
	}
}
