package fakemodel

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/drill-dev/drill/internal/jsonscan"
)

// Transport returns an http.RoundTripper that calls the server's handler
// in-process, without sockets, so a client can use the fake model inside a
// testing/synctest bubble, in fake time.
//
// A round trip reads and closes the request body and runs the handler: on
// the caller's goroutine for a request that asks for no stream, returning
// the whole answer after the latency wait; otherwise in a new goroutine,
// returning once the handler has written the response header and first
// body bytes or has returned. A streamed answer's body is a pipe the
// handler keeps writing to. If the request's context ends first, RoundTrip
// returns the context's error at once, and the handler, which waits on the
// same context, returns without writing. Closing a streamed body early
// stops the handler. No goroutine outlives the request.
func (s *Server) Transport() http.RoundTripper { return transport{s} }

type transport struct{ s *Server }

// RoundTrip serves req with the fake model's handler in-process.
func (t transport) RoundTrip(req *http.Request) (*http.Response, error) {
	body, buffer, err := readRequestBody(req)
	if err != nil {
		return nil, err
	}
	ctx := req.Context()
	if err := ctx.Err(); err != nil {
		putBodyBuffer(buffer)
		return nil, err
	}
	// A shallow copy: the handler only reads the request, and a round
	// tripper's caller leaves req alone until the response body is closed.
	in := req.WithContext(ctx)
	in.Body = &memBody{Reader: bytes.NewReader(body), b: body}
	in.ContentLength = int64(len(body))
	in.RemoteAddr = "in-process"
	in.RequestURI = req.URL.RequestURI()
	if in.Host == "" {
		in.Host = req.URL.Host
	}

	if !streamWanted(body) {
		return t.serveWhole(req, in, buffer)
	}
	pr, pw := io.Pipe()
	rw := &pipeWriter{header: http.Header{}, pw: pw, ready: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		t.s.ServeHTTP(rw, in)
		rw.finish(ctx.Err())
		putBodyBuffer(buffer) // the handler is done with the body
	}()

	select {
	case <-rw.ready:
	case <-ctx.Done():
		// The handler waits on the same context and returns promptly;
		// closing the reader unblocks any write in progress.
		pr.CloseWithError(ctx.Err())
		<-done // so no handler outlives its request
		return nil, ctx.Err()
	}

	rw.mu.Lock()
	status, header, buffered, streaming := rw.status, rw.sent, rw.buf, rw.streaming
	rw.mu.Unlock()
	resp := &http.Response{
		Status:     statusLine(status),
		StatusCode: status,
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  header,
		Request: req,
	}
	if !streaming {
		pr.Close()
		resp.Body = io.NopCloser(bytes.NewReader(buffered))
		resp.ContentLength = int64(len(buffered))
		return resp, nil
	}
	resp.ContentLength = -1
	resp.Body = &pipeBody{pr: pr, done: done}
	return resp, nil
}

// readRequestBody reads and closes req's body, into a pooled buffer when
// its length suits one (buffer, to put back once the handler is done).
func readRequestBody(req *http.Request) (body []byte, buffer *[]byte, err error) {
	if req.Body == nil {
		return nil, nil, nil
	}
	if buffer = bodyBuffer(req.ContentLength); buffer != nil {
		body, err = readBodyInto(buffer, req.Body)
	} else {
		body, err = readBody(req.Body, req.ContentLength)
	}
	req.Body.Close()
	if err != nil {
		putBodyBuffer(buffer)
		return nil, nil, err
	}
	return body, buffer, nil
}

// serveWhole serves a request that asks for no stream (in, the handler's
// copy of req) on the caller's goroutine: the answer comes whole, so
// nothing reads it while the handler writes, and a drill with thousands of
// calls in flight holds one goroutine (and its stack) for each instead of
// two. If the request's context ends first, the handler, which waits on
// it, returns, and so does the round trip, with the context's error.
func (t transport) serveWhole(req, in *http.Request, buffer *[]byte) (*http.Response, error) {
	rw := &pipeWriter{header: http.Header{}, whole: true}
	t.s.ServeHTTP(rw, in)
	putBodyBuffer(buffer) // the handler is done with the body
	if err := in.Context().Err(); err != nil {
		return nil, err
	}
	rw.writeHeaderLocked(http.StatusOK) // the handler has returned: no lock needed
	return &http.Response{
		Status:     statusLine(rw.status),
		StatusCode: rw.status,
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        rw.sent,
		Request:       req,
		Body:          io.NopCloser(bytes.NewReader(rw.buf)),
		ContentLength: int64(len(rw.buf)),
	}, nil
}

// streamWanted reports whether a request body asks for a stream ("stream":
// true at its top level). A body it cannot read counts as asking: such a
// request is served on a goroutine of its own, which works either way.
func streamWanted(body []byte) bool {
	s := jsonscan.New(body)
	stream := false
	read := s.Object(func(key []byte) bool {
		if string(key) != "stream" {
			return s.Skip()
		}
		v, ok := s.Bool()
		stream = v
		return ok
	})
	return stream || !read || !s.End()
}

// statusLine is a response's Status for code, "200 OK" without building it.
func statusLine(code int) string {
	if code == http.StatusOK {
		return "200 OK"
	}
	return strconv.Itoa(code) + " " + http.StatusText(code)
}

// bodyBuffers holds the buffers the transport reads request bodies into.
// A body is the handler's until it returns; nothing the handler keeps
// aliases it (the decoders and the caches copy what they keep), so the
// buffer then serves another request, read without allocating or zeroing
// a new one.
var bodyBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledBody is the largest body read into a pooled buffer; a larger
// one is read into its own, which is dropped when the request ends.
const maxPooledBody = 64 << 10

// bodyBuffer returns a pooled buffer for a body of length bytes (a
// Content-Length), or nil when the length is unknown or too large.
func bodyBuffer(length int64) *[]byte {
	if length <= 0 || length > maxPooledBody {
		return nil
	}
	return bodyBuffers.Get().(*[]byte)
}

// readBodyInto reads r to its end into *buf, growing it as needed.
func readBodyInto(buf *[]byte, r io.Reader) ([]byte, error) {
	b := bytes.NewBuffer((*buf)[:0])
	_, err := b.ReadFrom(r)
	*buf = b.Bytes()
	return *buf, err
}

// putBodyBuffer returns buf, if any, to the pool, unless it grew past
// maxPooledBody.
func putBodyBuffer(buf *[]byte) {
	if buf != nil && cap(*buf) <= 2*maxPooledBody {
		*buf = (*buf)[:0]
		bodyBuffers.Put(buf)
	}
}

// memBody is the body of a request the transport hands to the handler: the
// bytes it read from the caller's body, which the handler takes as they
// are (requestBody) rather than copying them again.
type memBody struct {
	*bytes.Reader
	b []byte
}

// Close does nothing: the bytes are the transport's.
func (*memBody) Close() error { return nil }

// pipeWriter is the handler's http.ResponseWriter. It buffers the answer
// until the handler flushes (a stream) or returns (a whole answer).
type pipeWriter struct {
	header http.Header
	pw     *io.PipeWriter
	ready  chan struct{}

	mu        sync.Mutex
	status    int
	sent      http.Header // the header as it was at WriteHeader
	buf       []byte
	streaming bool
	signalled bool
	whole     bool // serveWhole's: Flush does not stream, the answer is released whole
}

// Header returns the response header the handler fills in.
func (w *pipeWriter) Header() http.Header { return w.header }

// WriteHeader records the status and a snapshot of the header.
func (w *pipeWriter) WriteHeader(code int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeHeaderLocked(code)
}

func (w *pipeWriter) writeHeaderLocked(code int) {
	if w.status != 0 {
		return
	}
	w.status = code
	w.sent = w.header.Clone()
}

// Write buffers p, or sends it down the pipe once the response streams.
func (w *pipeWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.writeHeaderLocked(http.StatusOK)
	if !w.streaming {
		w.buf = append(w.buf, p...)
		w.mu.Unlock()
		return len(p), nil
	}
	w.mu.Unlock()
	return w.pw.Write(p)
}

// Flush turns the response into a stream: the round trip returns with the
// pipe as its body, and later writes go straight into the pipe.
func (w *pipeWriter) Flush() {
	w.mu.Lock()
	w.writeHeaderLocked(http.StatusOK)
	if w.streaming || w.whole {
		w.mu.Unlock()
		return
	}
	w.streaming = true
	buf := w.buf
	w.buf = nil
	w.signalLocked()
	w.mu.Unlock()
	if len(buf) > 0 {
		w.pw.Write(buf)
	}
}

func (w *pipeWriter) signalLocked() {
	if !w.signalled {
		w.signalled = true
		close(w.ready)
	}
}

// finish runs after the handler returns: a buffered answer is released
// whole; a stream's pipe is closed, with ctxErr if the request was cancelled.
func (w *pipeWriter) finish(ctxErr error) {
	w.mu.Lock()
	w.writeHeaderLocked(http.StatusOK)
	streaming := w.streaming
	w.signalLocked()
	w.mu.Unlock()
	if streaming {
		w.pw.CloseWithError(ctxErr)
		return
	}
	w.pw.Close()
}

// pipeBody is a streamed response body; Close stops the handler's writes and
// waits for it to return, so no goroutine is left behind.
type pipeBody struct {
	pr   *io.PipeReader
	done chan struct{}
	once sync.Once
}

// Read reads the stream.
func (b *pipeBody) Read(p []byte) (int, error) { return b.pr.Read(p) }

// Close ends the stream and waits for the handler to return.
func (b *pipeBody) Close() error {
	b.once.Do(func() {
		b.pr.CloseWithError(context.Canceled)
		<-b.done
	})
	return nil
}
