package chain

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/triage"
)

// sdkReply is what the SDK's decoding of b gives for the two figures a
// call reads, and whether the SDK decodes b at all.
func sdkReply(b []byte) (choices int, content string, err error) {
	var cc *openai.ChatCompletion
	if err := json.Unmarshal(b, &cc); err != nil {
		return 0, "", err
	}
	if cc == nil {
		return 0, "", nil
	}
	if len(cc.Choices) > 0 {
		content = cc.Choices[0].Message.Content
	}
	return len(cc.Choices), content, nil
}

// checkReply fails t if readReply reads b and disagrees with the SDK.
func checkReply(t *testing.T, b []byte) (read bool) {
	t.Helper()
	n, content, ok := readReply(b)
	if !ok {
		return false
	}
	wn, wcontent, err := sdkReply(b)
	if err != nil {
		t.Fatalf("readReply read %s, which the SDK fails to decode: %v", b, err)
	}
	if n != wn || content != wcontent {
		t.Fatalf("readReply(%s) = %d %q, the SDK gives %d %q", b, n, content, wn, wcontent)
	}
	return true
}

// replyCases are bodies of the usual shape and of shapes readReply leaves
// to the SDK.
var replyCases = []string{
	`{"choices":[{"message":{"content":"hi"}}]}`,
	` { "id" : "x" , "choices" : [ { "index" : 0 , "message" : { "role" : "assistant" , "content" : "a\"b\\c\/d\n\t\r\b\f" , "refusal" : null } } , {"message":{"content":"second"}} ] , "usage" : { "n" : [1, 2.5e3, true, false, null, {"a":"}]"}] } } `,
	`{"choices":[]}`,
	`{"object":"chat.completion","choices":[{"message":{"content":""}}]}`,
	`{"choices":[{"message":{"content":"\ud800"}}]}`,
	`{"choices":[{"message":{"content":null}}]}`,
	`{"choices":[{"message":{"content":7}}]}`,
	`{"choices":[{"message":{"content":{"a":1}}}]}`,
	`{"choices":[{"message":{}}]}`,
	`{"choices":[{}]}`,
	`{"choices":[1,{"message":{"content":"x"}}]}`,
	`{"choices":[{"message":{"content":"a","content":"b"}}]}`,
	`{"choices":[{"message":{"content":"a"},"message":{"content":"b"}}]}`,
	`{"choices":[{"message":{"content":"a"}}],"choices":[]}`,
	`{"choic\u0065s":[{"message":{"content":"a"}}]}`,
	`{"Choices":[{"message":{"content":"a"}}]}`,
	`{"choices":{"message":{"content":"a"}}}`,
	`{"choices":null}`,
	`{}`,
	`null`,
	`[]`,
	`"choices"`,
	`{"choices":[{"message":{"content":"` + "\xff" + `"}}]}`,
	`{"choices":[{"message":{"content":"é ✓ 🙂"}}]}`,
	`{"a":"\\","choices":[{"message":{"content":"x\\"}}]}`,
}

// TestReadReplyMatchesTheSDK checks that wherever readReply reads a body,
// its figures are the SDK's: for the fake model's answer to every email by
// both models (all of which it must read) and for bodies of other shapes.
func TestReadReplyMatchesTheSDK(t *testing.T) {
	srv := fakemodel.New(fakemodel.Options{NoLatency: true})
	c := openai.NewClient(option.WithBaseURL("http://fake/v1/"), option.WithAPIKey("k"),
		option.WithHTTPClient(&http.Client{Transport: srv.Transport()}))
	for _, model := range []string{fakemodel.ModelMini, fakemodel.ModelNano} {
		for _, e := range emails.All() {
			var raw []byte
			if _, err := c.Chat.Completions.New(context.Background(), triage.Params(model, e), option.WithResponseBodyInto(&raw)); err != nil {
				t.Fatal(err)
			}
			if !checkReply(t, raw) {
				t.Fatalf("%s email %d: readReply left the fake model's answer to the SDK: %s", model, e.ID, raw)
			}
		}
	}
	read := 0
	for _, b := range replyCases {
		if !json.Valid([]byte(b)) {
			continue // the SDK's decoder rejects it before a reply sees it
		}
		if checkReply(t, []byte(b)) {
			read++
		}
	}
	if read < 4 {
		t.Errorf("readReply read %d of the usual bodies, want at least 4", read)
	}
}

// TestReplyFallsBackToTheSDK checks a reply gives the SDK's figures for
// bodies readReply declines.
func TestReplyFallsBackToTheSDK(t *testing.T) {
	for _, b := range []string{`{"choices":[{"message":{"content":"\ud800"}}]}`, `{"choices":[{"message":{"content":7}}]}`, `{"choices":[{}]}`} {
		var r reply
		if err := json.Unmarshal([]byte(b), &r); err != nil {
			t.Fatal(err)
		}
		n, content := r.first()
		wn, wcontent, _ := sdkReply([]byte(b))
		if !r.sdk || n != wn || content != wcontent {
			t.Errorf("%s: sdk %v, %d %q, want the SDK's %d %q", b, r.sdk, n, content, wn, wcontent)
		}
	}
}

// FuzzReadReply checks readReply against the SDK on any valid JSON.
func FuzzReadReply(f *testing.F) {
	for _, b := range replyCases {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if json.Valid(b) {
			checkReply(t, b)
		}
	})
}
