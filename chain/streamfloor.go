package chain

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/drill-dev/drill/internal/sse"
)

// ErrSlowStream is the error a stream cut by the stream-rate floor ends
// with; Classify sorts it as event.SlowStream.
var ErrSlowStream = errors.New("stream under the rate floor: cut")

// StreamFloor is seed 000's stream-rate check: Check into a streamed answer
// (from its response headers), and every Check after that, the stream must
// have delivered at least MinTokensPerS tokens a second on average, or it
// is cut. Tokens are counted as the content deltas' bytes at four bytes a
// token. The zero value (MinTokensPerS 0) checks nothing.
type StreamFloor struct {
	// MinTokensPerS is the floor; 0 turns the check off.
	MinTokensPerS float64 `json:"min_tokens_per_s,omitempty"`
	// Check is when the rate is first checked, and how often after; zero
	// means 3 s.
	Check time.Duration `json:"stream_check_ns,omitempty"`
}

// wrap returns next with the floor applied to its server-sent-event
// responses; next itself when the floor is off.
func (f StreamFloor) wrap(next http.RoundTripper) http.RoundTripper {
	if f.MinTokensPerS <= 0 {
		return next
	}
	if f.Check <= 0 {
		f.Check = 3 * time.Second
	}
	return &floorTransport{floor: f, next: next}
}

// floorTransport applies a StreamFloor below the SDK.
type floorTransport struct {
	floor StreamFloor
	next  http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *floorTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || !sse.IsStream(resp.Header) {
		return resp, err
	}
	b := &floorBody{rc: resp.Body, floor: t.floor, start: time.Now()}
	b.lines.OnData = b.count
	b.timer = time.AfterFunc(t.floor.Check, b.check)
	resp.Body = b
	return resp, nil
}

// floorBody counts a stream's tokens as it is read and cuts it when a check
// finds it under the floor.
type floorBody struct {
	rc    io.ReadCloser
	floor StreamFloor
	start time.Time
	timer *time.Timer

	mu     sync.Mutex
	lines  sse.Scanner // follows the stream's data: lines as they are read
	tokens float64
	cut    error // set once the stream is cut
	done   bool  // closed or read to its end
}

// Read implements io.Reader.
func (b *floorBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cut != nil {
		return 0, b.cut
	}
	b.lines.Write(p[:n])
	if err != nil {
		b.done = true
		b.timer.Stop()
	}
	return n, err
}

// count adds the tokens of one data: line's content deltas, at four bytes
// a token.
func (b *floorBody) count(data []byte) {
	if c, err := sse.ParseChunk(data); err == nil {
		b.tokens += float64(len(c.Content())) / 4
	}
}

// check cuts the stream if its average rate is under the floor, or checks
// again one Check later.
func (b *floorBody) check() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done || b.cut != nil {
		return
	}
	elapsed := time.Since(b.start)
	if rate := b.tokens / elapsed.Seconds(); rate < b.floor.MinTokensPerS {
		b.cut = fmt.Errorf("%w: %.1f tokens/s after %s, floor %g", ErrSlowStream, rate, elapsed.Round(time.Millisecond), b.floor.MinTokensPerS)
		b.rc.Close() // unblocks a Read in progress
		return
	}
	b.timer.Reset(b.floor.Check)
}

// Close implements io.Closer.
func (b *floorBody) Close() error {
	b.mu.Lock()
	b.done = true
	b.timer.Stop()
	b.mu.Unlock()
	return b.rc.Close()
}
