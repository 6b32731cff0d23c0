package inject

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/triage"
)

// okTransport answers every request with a small 200.
type okTransport struct {
	mu    sync.Mutex
	calls int
}

func (o *okTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	o.mu.Lock()
	o.calls++
	o.mu.Unlock()
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(`{"object":"list","data":[]}`)), Request: req}, nil
}

// counting counts the attempts that reach the injector.
type counting struct {
	mu    sync.Mutex
	n     int
	times []time.Time
	next  http.RoundTripper
}

func (c *counting) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.n++
	c.times = append(c.times, time.Now())
	c.mu.Unlock()
	return c.next.RoundTrip(r)
}

// modelRig is the real openai-go SDK over an injector in front of the
// in-process fake model, for use inside a synctest bubble.
type modelRig struct {
	in       *Injector
	attempts *counting
	faults   []Applied
	mu       sync.Mutex
}

func newRig(t *testing.T, w event.Window) *modelRig {
	t.Helper()
	r := &modelRig{}
	srv := fakemodel.New(fakemodel.Options{Seed: 1})
	r.in = New(srv.Transport(), time.Now(), Options{Seed: 1, OnFault: func(_ *http.Request, a Applied) {
		r.mu.Lock()
		r.faults = append(r.faults, a)
		r.mu.Unlock()
	}})
	if err := r.in.Add(w); err != nil {
		t.Fatal(err)
	}
	r.attempts = &counting{next: r.in}
	return r
}

// client is an SDK client with the given attempt-scope time limit (0:
// none) and retries.
func (r *modelRig) client(limit time.Duration, retries int, opts ...option.RequestOption) openai.Client {
	hc := &http.Client{Transport: r.attempts, Timeout: limit}
	return openai.NewClient(append([]option.RequestOption{option.WithBaseURL("http://fake-model.invalid/v1"),
		option.WithAPIKey("k"), option.WithMaxRetries(retries), option.WithHTTPClient(hc)}, opts...)...)
}

// email is the i-th email of the data set (0-based).
func email(i int) emails.Email { return emails.All()[i] }

// triageCall makes one non-streamed triage call and parses the answer.
func triageCall(ctx context.Context, c openai.Client, e emails.Email) (emails.Answer, error) {
	resp, err := c.Chat.Completions.New(ctx, triage.Params(fakemodel.ModelMini, e))
	if err != nil {
		return emails.Answer{}, err
	}
	return triage.Parse(resp.Choices[0].Message.Content)
}

// streamResult is what a streamed triage call got.
type streamResult struct {
	text   string
	chunks int // chunks with content
	err    error
}

// streamCall makes one streamed triage call with include_usage and reads
// it to the end.
func streamCall(ctx context.Context, c openai.Client, e emails.Email) streamResult {
	p := triage.Params(fakemodel.ModelMini, e)
	p.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	s := c.Chat.Completions.NewStreaming(ctx, p)
	defer s.Close()
	var res streamResult
	var b strings.Builder
	for s.Next() {
		for _, ch := range s.Current().Choices {
			if ch.Delta.Content != "" {
				res.chunks++
				b.WriteString(ch.Delta.Content)
			}
		}
	}
	res.text, res.err = b.String(), s.Err()
	return res
}

// parse is ParseFault for tests: an open-ended window from 0.
func parse(t *testing.T, kind string, kv ...string) event.Window {
	t.Helper()
	w, err := ParseFault(kind, kv)
	if err != nil {
		t.Fatal(err)
	}
	w.To = -1
	return w
}
