package proxy

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/sdkprofile"
)

// inProcess is a client transport that serves every request with the
// proxy's handler in-process, without sockets, so the real SDK meets the
// proxy inside a synctest bubble, in fake time. The response's headers
// reach the client when the handler writes them; its body is a pipe the
// handler keeps writing to (a stream passes chunk by chunk). A handler
// that drops the connection (http.ErrAbortHandler: a reset) ends the round
// trip with ECONNRESET before the headers, or the body with it after.
type inProcess struct{ h http.Handler }

type pipeWriter struct {
	mu     sync.Mutex
	header http.Header
	sent   bool
	status int
	ready  chan struct{}
	pw     *io.PipeWriter
}

func (w *pipeWriter) Header() http.Header { return w.header }

func (w *pipeWriter) WriteHeader(status int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sent {
		return
	}
	w.sent, w.status = true, status
	close(w.ready)
}

func (w *pipeWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.pw.Write(b)
}

func (w *pipeWriter) Flush() { w.WriteHeader(http.StatusOK) }

func (t inProcess) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	in := req.Clone(ctx)
	in.RequestURI = req.URL.RequestURI()
	in.RemoteAddr = "in-process"
	pr, pw := io.Pipe()
	rw := &pipeWriter{header: http.Header{}, ready: make(chan struct{}), pw: pw}
	done := make(chan struct{})
	var reset bool
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				if r != http.ErrAbortHandler {
					panic(r)
				}
				reset = true
				pw.CloseWithError(syscall.ECONNRESET)
				return
			}
			// A handler ended by the client's time limit: the client
			// reads that, as from a socket, not a clean end.
			pw.CloseWithError(cmp.Or(ctx.Err(), io.EOF))
		}()
		t.h.ServeHTTP(rw, in)
	}()
	select {
	case <-rw.ready:
	case <-done:
		if reset {
			return nil, &url.Error{Op: req.Method, URL: req.URL.String(), Err: syscall.ECONNRESET}
		}
		rw.WriteHeader(http.StatusOK)
	case <-ctx.Done():
		pr.CloseWithError(ctx.Err())
		<-done
		return nil, ctx.Err()
	}
	resp := &http.Response{StatusCode: rw.status, Status: fmt.Sprintf("%d %s", rw.status, http.StatusText(rw.status)),
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: rw.header.Clone(), ContentLength: -1, Request: req,
		Body: &pipeBody{pr: pr, done: done, ctx: ctx}}
	return resp, nil
}

// pipeBody is a response body that ends with the request's context, as a
// socket's does.
type pipeBody struct {
	pr   *io.PipeReader
	done chan struct{}
	ctx  context.Context
	once sync.Once
	stop func() bool
}

func (b *pipeBody) Read(p []byte) (int, error) {
	b.once.Do(func() { b.stop = context.AfterFunc(b.ctx, func() { b.pr.CloseWithError(b.ctx.Err()) }) })
	return b.pr.Read(p)
}

func (b *pipeBody) Close() error {
	b.pr.CloseWithError(errors.New("body closed"))
	<-b.done
	if b.stop != nil {
		b.stop()
	}
	return nil
}

// TestGoSDKThroughTheProxyWithinItsProfile plays each fault through the
// proxy with the real openai-go client in fake time, and checks the SDK's
// profile: the attempts the proxy saw are the profile's, and the call took
// a time within its range.
func TestGoSDKThroughTheProxyWithinItsProfile(t *testing.T) {
	prof, err := sdkprofile.Lookup(sdkprofile.Go)
	if err != nil {
		t.Fatal(err)
	}
	five := 5 * time.Second
	for _, tc := range []struct {
		name     string
		kind     string
		params   map[string]string
		stream   bool
		fault    sdkprofile.Fault
		s        sdkprofile.Settings
		clientTO time.Duration
		reqTO    time.Duration
	}{
		{name: "busy", kind: "busy", fault: sdkprofile.Fault{Kind: sdkprofile.Busy}},
		{name: "rate-limit 90s", kind: "rate-limit", params: map[string]string{"retry_after": "90s"},
			fault: sdkprofile.Fault{Kind: sdkprofile.RateLimit, RetryAfter: 90 * time.Second}},
		{name: "rate-limit 3m", kind: "rate-limit", params: map[string]string{"retry_after": "3m"},
			fault: sdkprofile.Fault{Kind: sdkprofile.RateLimit, RetryAfter: 3 * time.Minute}},
		{name: "hang, client timeout", kind: "hang", clientTO: five,
			fault: sdkprofile.Fault{Kind: sdkprofile.Hang}, s: sdkprofile.Settings{Timeout: five}},
		{name: "hang, request timeout", kind: "hang", reqTO: five,
			fault: sdkprofile.Fault{Kind: sdkprofile.Hang}, s: sdkprofile.Settings{Timeout: five, RequestScope: true}},
		{name: "stall, not streamed", kind: "stall", clientTO: five,
			fault: sdkprofile.Fault{Kind: sdkprofile.Stall}, s: sdkprofile.Settings{Timeout: five}},
		{name: "stall, streamed", kind: "stall", stream: true, clientTO: five,
			fault: sdkprofile.Fault{Kind: sdkprofile.Stall, Stream: true}, s: sdkprofile.Settings{Timeout: five}},
		{name: "reset before the headers", kind: "reset", fault: sdkprofile.Fault{Kind: sdkprofile.Reset}},
		{name: "reset in the body", kind: "reset", params: map[string]string{"at": "body"},
			fault: sdkprofile.Fault{Kind: sdkprofile.Reset, AtBody: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := prof.Play(tc.fault, tc.s)
			synctest.Test(t, func(t *testing.T) {
				up, _ := url.Parse("http://fake.invalid/v1")
				p, err := New(Options{Upstream: up, Transport: fakemodel.New(fakemodel.Options{NoLatency: true}).Transport(),
					Windows: []event.Window{{FaultSpec: event.FaultSpec{Kind: tc.kind, Params: tc.params}, From: 0, To: time.Hour}}})
				if err != nil {
					t.Fatal(err)
				}
				defer p.Close("test over")
				hc := &http.Client{Transport: inProcess{h: p}, Timeout: tc.clientTO}
				opts := []option.RequestOption{option.WithBaseURL("http://proxy.invalid/v1"), option.WithAPIKey("sk-test"), option.WithHTTPClient(hc)}
				if tc.reqTO > 0 {
					opts = append(opts, option.WithRequestTimeout(tc.reqTO))
				}
				c := openai.NewClient(opts...)
				params := openai.ChatCompletionNewParams{Model: fakemodel.ModelMini,
					Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("ping")}}
				t0 := time.Now()
				if tc.stream {
					s := c.Chat.Completions.NewStreaming(context.Background(), params)
					for s.Next() {
					}
					err = s.Err()
				} else {
					_, err = c.Chat.Completions.New(context.Background(), params)
				}
				took := time.Since(t0)
				if err == nil {
					t.Fatalf("the call succeeded after %v; the profile says %s", took, prof.Cell(sdkprofile.Case{Fault: tc.fault, Settings: tc.s}))
				}
				attempts := 0
				for _, e := range p.Log().Events() {
					if e.Kind == event.AttemptStart {
						attempts++
					}
				}
				slack := 10 * time.Millisecond
				if attempts != want.Attempts || took < want.Took[0]-slack || took > want.Took[1]+slack {
					t.Errorf("measured %d attempts in %v (%v); the profile says %d in %v–%v", attempts, took, err,
						want.Attempts, want.Took[0], want.Took[1])
				}
				t.Logf("%d attempts, %v: %v", attempts, took, err)
			})
		})
	}
}
