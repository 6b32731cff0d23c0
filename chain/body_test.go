package chain

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/triage"
)

// sentRequest is what a transport saw of one attempt.
type sentRequest struct {
	header        http.Header
	contentLength int64
	body          []byte
}

// recordingTransport records every attempt and answers each with a 503, so
// the SDK retries and replays the body.
type recordingTransport struct {
	mu   sync.Mutex
	sent []sentRequest
}

func (t *recordingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.sent = append(t.sent, sentRequest{r.Header.Clone(), r.ContentLength, body})
	t.mu.Unlock()
	return &http.Response{StatusCode: http.StatusServiceUnavailable, Header: http.Header{"Retry-After-Ms": {"0"}},
		Body: io.NopCloser(strings.NewReader(`{"error":{"message":"busy"}}`)), Request: r}, nil
}

// TestCachedBodiesAreTheSDKRequest checks a rung's call sends, on every
// attempt and whether the body was encoded now or kept from an earlier
// call, exactly the request (headers, length and bytes) the SDK sends for
// triage.Params, for every built-in email, the probe's and one with
// characters the encoder escapes.
func TestCachedBodiesAreTheSDKRequest(t *testing.T) {
	requestBodies.mu.Lock()
	requestBodies.m = nil // the first round encodes every body
	requestBodies.mu.Unlock()
	odd := emails.Email{From: "<a&b>@x.test", Subject: "Ünïcode \u2028 \"quoted\"", Body: "<script>&amp;\tline\nend \x01"}
	es := append(emails.All(), probeEmail, odd)
	for _, model := range []string{"gpt-5.4-mini", "gpt-5.4-nano"} {
		plain, cached := &recordingTransport{}, &recordingTransport{}
		rp, rc := rung("primary", model, plain, nil), rung("primary", model, cached, nil)
		for round := range 2 {
			for _, e := range es {
				plain.sent, cached.sent = nil, nil
				_, _ = rp.client.Chat.Completions.New(context.Background(), triage.Params(model, e))
				_, _, _ = rc.call(context.Background(), e)
				if len(plain.sent) != 3 || len(cached.sent) != len(plain.sent) {
					t.Fatalf("%s email %d: %d and %d attempts, want 3 each", model, e.ID, len(plain.sent), len(cached.sent))
				}
				for i, want := range plain.sent {
					got := cached.sent[i]
					if !bytes.Equal(got.body, want.body) || got.contentLength != want.contentLength {
						t.Fatalf("%s email %d round %d attempt %d: body differs:\n got %d %s\nwant %d %s",
							model, e.ID, round, i, got.contentLength, got.body, want.contentLength, want.body)
					}
					if !reflect.DeepEqual(got.header, want.header) {
						t.Fatalf("%s email %d attempt %d: headers differ:\n got %v\nwant %v", model, e.ID, i, got.header, want.header)
					}
				}
			}
		}
		requestBodies.mu.RLock()
		for _, e := range es {
			if _, ok := requestBodies.m[bodyKey{model, e.From, e.Subject, e.Body}]; !ok {
				t.Errorf("%s email %d: body not kept", model, e.ID)
			}
		}
		requestBodies.mu.RUnlock()
	}
}

// TestBodyCacheStaysBounded checks the cache never holds more than
// maxBodies requests: a full cache is emptied before the next one is kept.
func TestBodyCacheStaysBounded(t *testing.T) {
	var c bodies
	for i := range maxBodies + 10 {
		if _, ok := c.encoded("gpt-5.4-mini", emails.Email{Subject: "s", Body: strconv.Itoa(i)}); !ok {
			t.Fatal("not encoded")
		}
		if len(c.m) > maxBodies {
			t.Fatalf("%d bodies kept, more than %d", len(c.m), maxBodies)
		}
	}
	if len(c.m) != 10 {
		t.Errorf("%d bodies kept after the cache was emptied, want the 10 since", len(c.m))
	}
}
