package inject_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/drill-dev/drill/inject"
)

// TestBufferBody: the body BufferBody returns is the one the request goes
// on with, whether the request can give its body again from fresh readers
// (openai-go's []byte bodies), from one shared reader it rewinds (its
// *bytes.Reader bodies), or not at all.
func TestBufferBody(t *testing.T) {
	const text = `{"model":"m","messages":[{"role":"user","content":"hi"}]}`
	newReq := func() *http.Request {
		req, err := http.NewRequest(http.MethodPost, "http://model.invalid/v1/chat/completions", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = int64(len(text))
		return req
	}
	fresh := newReq()
	fresh.Body = io.NopCloser(strings.NewReader(text))
	fresh.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(text)), nil }

	shared := newReq()
	r := bytes.NewReader([]byte(text))
	shared.Body = io.NopCloser(r)
	shared.GetBody = func() (io.ReadCloser, error) {
		_, err := r.Seek(0, io.SeekStart)
		return io.NopCloser(r), err
	}

	once := newReq()
	once.Body = io.NopCloser(strings.NewReader(text))

	for name, req := range map[string]*http.Request{"fresh readers": fresh, "one shared reader": shared, "no GetBody": once} {
		out, b, err := inject.BufferBody(req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if string(b) != text {
			t.Errorf("%s: BufferBody read %q, want %q", name, b, text)
		}
		sent, err := io.ReadAll(out.Body)
		if err != nil || string(sent) != text {
			t.Errorf("%s: the request goes on with body %q (%v), want %q", name, sent, err, text)
		}
		if out.ContentLength != int64(len(text)) {
			t.Errorf("%s: ContentLength %d, want %d", name, out.ContentLength, len(text))
		}
	}
}
