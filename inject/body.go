package inject

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/drill-dev/drill/internal/sse"
)

// BytesPerToken is the size of a token's worth of text: the fake model's
// (and OpenAI's rough) four bytes a token. A body that is not a stream is
// paced and cut in pieces of this size; a broken-off answer's tokens and a
// stream's rate are estimated with it wherever drill estimates them.
const BytesPerToken = 4

// errBodyClosed is what a held body's Read returns after Close.
var errBodyClosed = errors.New("inject: response body closed")

// jsonResponse is a response made up by a fault, with a JSON body.
func jsonResponse(req *http.Request, status int, header http.Header, body string) *http.Response {
	if header == nil {
		header = http.Header{}
	}
	header.Set("Content-Type", "application/json")
	return &http.Response{
		Status:        strconv.Itoa(status) + " " + http.StatusText(status),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        header,
		Body:          io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}
}

// setRetryAfter asks the client to wait d before its next attempt: the
// Retry-After header in whole seconds, rounded up, and retry-after-ms,
// which openai-go prefers.
func setRetryAfter(h http.Header, d time.Duration) {
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(d.Seconds()))))
	h.Set("Retry-After-Ms", strconv.FormatInt(d.Milliseconds(), 10))
}

// closeBody closes a request body a fault does not send on.
func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// chunkReader yields a response body one chunk at a time: one server-sent
// event (with its blank line) for a stream, one token's worth of bytes
// otherwise.
type chunkReader struct {
	stream bool
	r      *bufio.Reader // a body that is not a stream
	events *sse.Reader   // a stream
}

func newChunkReader(resp *http.Response) *chunkReader {
	if sse.IsStream(resp.Header) {
		return &chunkReader{stream: true, events: sse.NewReader(resp.Body, sse.MaxLine)}
	}
	return &chunkReader{r: bufio.NewReader(resp.Body)}
}

// next returns the next chunk, or io.EOF after the last.
func (c *chunkReader) next() ([]byte, error) {
	if !c.stream {
		buf := make([]byte, BytesPerToken)
		n, err := io.ReadFull(c.r, buf)
		if n > 0 {
			return buf[:n], nil
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = io.EOF
		}
		return nil, err
	}
	ev, err := c.events.Next()
	return ev.Raw, err
}

// tokens is how many tokens a chunk carries: the length of a stream
// event's content and tool-call argument deltas, or of a body piece, at
// four bytes a token.
func (c *chunkReader) tokens(chunk []byte) int {
	if !c.stream {
		return 1
	}
	return (eventDeltaBytes(chunk) + BytesPerToken - 1) / BytesPerToken
}

// eventDeltaBytes is the length of one server-sent event's content and
// tool-call argument deltas, each data: line decoded once.
func eventDeltaBytes(raw []byte) int {
	n := 0
	for _, data := range (sse.Event{Raw: raw}).Data() {
		c, err := sse.ParseChunk(data)
		if err != nil {
			continue
		}
		for _, ch := range c.Choices {
			n += len(ch.Delta.Content)
			var calls []wireToolCall
			if len(ch.Delta.ToolCalls) > 0 && json.Unmarshal(ch.Delta.ToolCalls, &calls) == nil {
				for _, tc := range calls {
					n += len(tc.Function.Arguments)
				}
			}
		}
	}
	return n
}

// eventContent returns the content deltas of one server-sent event.
func eventContent(raw []byte) string {
	var s strings.Builder
	for _, data := range (sse.Event{Raw: raw}).Data() {
		if c, err := sse.ParseChunk(data); err == nil {
			s.WriteString(c.Content())
		}
	}
	return s.String()
}

// heldBody is a response body a fault releases chunk by chunk: before each
// chunk it asks gate how long to wait (trickle), and after the last chunk
// it lets through it calls then (stall: wait for the context; reset: fail).
type heldBody struct {
	ctx    context.Context
	src    io.ReadCloser
	chunks *chunkReader
	// gate returns the wait before a chunk of n tokens.
	gate func(tokens int) time.Duration
	// limit is how many chunks pass before then; -1 for all.
	limit int
	// then is what Read does once limit chunks have passed.
	then func(ctx context.Context, closed <-chan struct{}) error
	// hold, if set, returns how long the end of the body is held: called
	// with each chunk (a stream's last event holds) and with nil at the
	// body's end.
	hold func(chunk []byte) time.Duration

	pending []byte
	passed  int
	closed  chan struct{}
	once    sync.Once
}

func newHeldBody(req *http.Request, resp *http.Response) *heldBody {
	return &heldBody{ctx: req.Context(), src: resp.Body, chunks: newChunkReader(resp), limit: -1,
		closed: make(chan struct{})}
}

// Read releases the body at the fault's pace.
func (b *heldBody) Read(p []byte) (int, error) {
	if len(b.pending) == 0 {
		if b.limit >= 0 && b.passed >= b.limit {
			return 0, b.then(b.ctx, b.closed)
		}
		c, err := b.chunks.next()
		if err != nil {
			if err == io.EOF && b.hold != nil {
				if err := b.sleep(b.hold(nil)); err != nil {
					return 0, err
				}
			}
			return 0, err
		}
		if b.hold != nil {
			if err := b.sleep(b.hold(c)); err != nil {
				return 0, err
			}
		}
		if b.gate != nil {
			if err := b.sleep(b.gate(b.chunks.tokens(c))); err != nil {
				return 0, err
			}
		}
		b.pending = c
		b.passed++
	}
	n := copy(p, b.pending)
	b.pending = b.pending[n:]
	return n, nil
}

func (b *heldBody) sleep(d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-b.ctx.Done():
		return b.ctx.Err()
	case <-b.closed:
		return errBodyClosed
	}
}

// Close closes the body; a Read waiting on it returns.
func (b *heldBody) Close() error {
	b.once.Do(func() { close(b.closed) })
	return b.src.Close()
}

// silence waits until the attempt's context ends or the body is closed:
// a stalled connection.
func silence(ctx context.Context, closed <-chan struct{}) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-closed:
		return errBodyClosed
	}
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
