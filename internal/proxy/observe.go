package proxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"

	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/sse"
)

// maxParsed bounds what the proxy keeps of a response to read its tokens: a
// non-streamed body, or one line of a stream. Bytes past it still pass
// through; they are just not read.
const maxParsed = 4 << 20

// observer is the transport the reverse proxy calls: it hands the attempt to
// the injector (or, for a model the outage spares, straight to the
// upstream) and logs its end, either at once (no response) or when the
// response body has been read to its end or closed (see watch).
type observer struct {
	p      *Proxy
	faulty http.RoundTripper // the injector
	direct http.RoundTripper // the upstream
}

func (o *observer) RoundTrip(req *http.Request) (*http.Response, error) {
	c := callOf(req.Context())
	if c == nil {
		return o.faulty.RoundTrip(req)
	}
	next := o.faulty
	if (o.p.models != nil && !o.p.models[c.model]) || !o.p.outageBreaks(c.model) {
		next = o.direct
	}
	resp, err := next.RoundTrip(req)
	if err != nil {
		// The status the error handler then sends the client.
		o.p.end(c, endState{err: err, ctx: req.Context(), status: o.p.errorAnswer(req.Context(), err)})
		return nil, err
	}
	if resp.Header == nil {
		resp.Header = http.Header{}
	}
	if resp.Header.Get(requestIDHeader) == "" {
		// An injected fault's answer, or an upstream that sends no id.
		resp.Header.Set(requestIDHeader, o.p.requestID(c.id))
	}
	resp.Body = &watch{p: o.p, c: c, ctx: req.Context(), body: resp.Body, status: resp.StatusCode,
		retryAfter: chain.RetryAfterHeader(resp.Header, time.Now()),
		sse:        c.chat && sse.IsStream(resp.Header)}
	return resp, nil
}

// endState is what the end of an attempt is judged from.
type endState struct {
	ctx        context.Context // the request's context
	err        error           // the transport's or the body's error; nil at a clean end
	status     int             // the response's status, 0 without a response
	retryAfter time.Duration
	invalid    string // why a 200 chat completion's body does not parse
	ttft       time.Duration
	in, out    int
}

// end logs an attempt's end.
func (p *Proxy) end(c *call, s endState) {
	e := event.Event{Kind: event.AttemptEnd, Rung: Rung, Model: c.logged, Attempt: c.retry, Status: s.status,
		RetryAfter: s.retryAfter, Proxy: c.proxyCall()}
	wait := time.Since(c.arrived)
	e.Proxy.Wait, e.Proxy.TTFT, e.Proxy.InputTokens, e.Proxy.OutputTokens = wait, s.ttft, s.in, s.out
	e.Proxy.Cost, e.Proxy.Priced = p.prices.Cost(c.model, s.in, s.out)
	switch {
	case s.err != nil && p.ctx.Err() != nil:
		e.Outcome, e.Detail = event.Canceled, "the proxy closed while the request was in flight"
	case errors.Is(s.err, errClientGone) || (s.err != nil && s.ctx.Err() != nil):
		// The proxy cannot tell a client's time limit from a client giving
		// up; either way the client stopped waiting.
		e.Outcome, e.Detail = event.Timeout, "the client hung up after "+format.Cell(wait, 2)
	case s.err != nil && s.status == 0 && errors.Is(s.err, syscall.ECONNRESET):
		e.Outcome, e.Detail = event.ConnError, "reset: the client's connection was dropped too ("+s.err.Error()+")"
	case s.err != nil:
		e.Outcome, e.Detail = classifyErr(s.err), s.err.Error()
	case s.invalid != "" && s.status == http.StatusOK:
		e.Outcome, e.Detail = event.Invalid, s.invalid
	default:
		e.Outcome = chain.ClassifyStatus(s.status)
	}
	p.log.Append(e)
}

// classifyErr sorts an upstream failure (the client still waiting) by
// behaviour.
func classifyErr(err error) event.Outcome {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return event.Timeout
	}
	return event.ConnError
}

// errClosedEarly is a body closed before its end: the client went away, or
// the proxy is closing.
var errClosedEarly = errors.New("the response was closed before its end")

// watch passes a response body through unchanged while it reads it: the
// time of the first token, the usage the upstream reports, and whether a
// chat completion's body parses. Its end or failure logs the attempt's end.
type watch struct {
	p          *Proxy
	c          *call
	ctx        context.Context
	body       io.ReadCloser
	status     int
	retryAfter time.Duration
	sse        bool

	eof     bool  // the body was read to its end
	done    bool  // a stream's [DONE] came through: the client has it all
	readErr error // the body broke
	ttft    time.Duration
	buf     []byte      // a non-streamed body
	lines   sse.Scanner // a stream's data: lines
	over    bool        // buf or a stream's line overflowed maxParsed: stop reading for tokens
	in, out int
	invalid string
	once    sync.Once
}

// Read implements io.Reader.
func (w *watch) Read(b []byte) (int, error) {
	n, err := w.body.Read(b)
	if n > 0 {
		w.see(b[:n])
	}
	switch {
	case errors.Is(err, io.EOF):
		w.eof = true
	case err != nil && w.readErr == nil:
		w.readErr = err
	}
	return n, err
}

// Close implements io.Closer. The reverse proxy closes the body once it has
// passed it on (or failed to): only then is the attempt's end known.
func (w *watch) Close() error {
	err := w.body.Close()
	end := errClosedEarly
	switch {
	case w.done || (w.eof && w.readErr == nil):
		// The stream's [DONE] or the body's end came through: a client
		// that hangs up as soon as it has the last chunk (the SDKs stop
		// at [DONE]) got the whole response.
		end = nil
	case w.readErr != nil:
		end = w.readErr
	case w.c.clientGone():
		end = errClientGone
	}
	w.finish(end)
	return err
}

func (w *watch) finish(err error) {
	w.once.Do(func() {
		if err == nil && !w.sse && w.c.chat && w.status == http.StatusOK && !w.over {
			w.parseCompletion()
		}
		w.p.end(w.c, endState{ctx: w.ctx, err: err, status: w.status, retryAfter: w.retryAfter,
			invalid: w.invalid, ttft: w.ttft, in: w.in, out: w.out})
	})
}

// errClientGone is a response the client did not take: writing to it failed.
var errClientGone = errors.New("the client hung up before the response was passed on")

// clientWriter is the client's ResponseWriter, noting whether writing to the
// client failed. Unwrap lets http.ResponseController reach the original.
type clientWriter struct {
	http.ResponseWriter
	c *call
}

// Write implements http.ResponseWriter.
func (w clientWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	if err != nil {
		w.c.setClientGone()
	}
	return n, err
}

// FlushError flushes to the client (the reverse proxy flushes every chunk).
func (w clientWriter) FlushError() error {
	err := http.NewResponseController(w.ResponseWriter).Flush()
	if err != nil && !errors.Is(err, http.ErrNotSupported) {
		w.c.setClientGone()
	}
	return err
}

// Unwrap returns the original ResponseWriter.
func (w clientWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// see reads bytes passing through.
func (w *watch) see(b []byte) {
	if !w.sse {
		if w.ttft == 0 && w.status/100 == 2 {
			w.ttft = time.Since(w.c.arrived)
		}
		if w.c.chat && !w.over {
			w.keep(b)
		}
		return
	}
	if w.over {
		return
	}
	if w.lines.OnData == nil {
		w.lines.OnData, w.lines.Max = w.sseData, maxParsed
	}
	w.lines.Write(b)
	w.over = w.lines.Err() != nil
}

func (w *watch) keep(b []byte) {
	if len(w.buf)+len(b) > maxParsed {
		w.over, w.buf = true, nil
		return
	}
	w.buf = append(w.buf, b...)
}

// sseData reads the data of one line of an event stream.
func (w *watch) sseData(data []byte) {
	if bytes.Equal(data, sse.Done) {
		w.done = true
		return
	}
	if len(data) == 0 {
		return
	}
	ch, err := sse.ParseChunk(data)
	if err != nil {
		if w.invalid == "" {
			w.invalid = fmt.Sprintf("a stream chunk is not JSON: %v", err)
		}
		return
	}
	if w.ttft == 0 && ch.HasDelta() {
		w.ttft = time.Since(w.c.arrived)
	}
	if ch.Usage != nil {
		w.usage(*ch.Usage)
	}
}

// parseCompletion reads a non-streamed chat completion's usage, and marks
// a body that is not a completion as invalid.
func (w *watch) parseCompletion() {
	c, err := readCompletion(w.buf)
	if err != nil {
		w.invalid = fmt.Sprintf("the body is not JSON: %v", err)
		return
	}
	if !c.choices {
		w.invalid = "the body has no choices"
		return
	}
	if c.hasUsage {
		w.usage(c.usage)
	}
}

// usage takes the token counts an answer reports, unless they are past any
// model's (edge.Tokens): those would make a cost without bound.
func (w *watch) usage(u sse.Usage) {
	if edge.Tokens(u.PromptTokens) && edge.Tokens(u.CompletionTokens) {
		w.in, w.out = u.PromptTokens, u.CompletionTokens
	}
}
