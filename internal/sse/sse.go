// Package sse reads server-sent event streams (text/event-stream), the wire
// form of a streamed chat completion: one reader for every place drill looks
// into a stream (the chain's rate floor, the workload's usage meter, the
// proxy's observer and the injector's faults).
//
// Two forms share one line grammar. Reader pulls whole events from a body
// (bufio-based), for code that consumes the stream itself. Scanner is fed
// the bytes of a body that something else consumes (a tee), and hands over
// the payload of every complete data: line. Both bound a line's length, so
// a hostile or broken upstream cannot make drill buffer without limit.
package sse

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
)

// MaxLine is the default bound on one line of a stream: lines longer than
// this are not parsed.
const MaxLine = 4 << 20

// ContentType is the media type of a server-sent event stream.
const ContentType = "text/event-stream"

// Done is the data of the last event of an OpenAI-style stream.
var Done = []byte("[DONE]")

// ErrLineTooLong is the error of a Reader (and of a Scanner's Err) that met
// a line longer than its bound.
var ErrLineTooLong = errors.New("sse: line too long")

// IsStream reports whether a response with header h is a server-sent event
// stream.
func IsStream(h http.Header) bool {
	return strings.HasPrefix(strings.ToLower(h.Get("Content-Type")), ContentType)
}

// DataOf returns the payload of one line if it is a data: line (surrounding
// white space trimmed, so "data: {...}" and "data:{...}" read alike), and
// false for any other line (comments, event:, id:, retry:, blank).
func DataOf(line []byte) ([]byte, bool) {
	data, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("data:"))
	if !ok {
		return nil, false
	}
	return bytes.TrimSpace(data), true
}

// Event is one server-sent event as it came over the wire.
type Event struct {
	// Raw is the event's bytes: its lines and the blank line that ends it
	// (absent for a last event cut off by the end of the body), so writing
	// Raw passes the event on unchanged.
	Raw []byte
}

// Data returns the payloads of the event's data: lines, in order.
func (e Event) Data() [][]byte {
	var out [][]byte
	for line := range bytes.Lines(e.Raw) {
		if d, ok := DataOf(line); ok {
			out = append(out, d)
		}
	}
	return out
}

// Reader reads a stream one event at a time.
type Reader struct {
	r   *bufio.Reader
	max int
}

// NewReader returns a Reader of r whose lines may be up to maxLine bytes
// long (MaxLine when maxLine ≤ 0).
func NewReader(r io.Reader, maxLine int) *Reader {
	if maxLine <= 0 {
		maxLine = MaxLine
	}
	return &Reader{r: bufio.NewReader(r), max: maxLine}
}

// Next returns the next event (any blank lines before it are part of its
// Raw, so no byte of the stream is lost). At the end of
// the body it returns a last event without its blank line if there is one,
// and io.EOF after that; a line over the bound is ErrLineTooLong, and a
// read error is returned as it came.
func (r *Reader) Next() (Event, error) {
	var raw []byte
	for {
		line, err := r.line()
		raw = append(raw, line...)
		if err != nil {
			if errors.Is(err, io.EOF) && len(bytes.TrimSpace(raw)) > 0 {
				return Event{Raw: raw}, nil
			}
			return Event{}, err
		}
		if len(bytes.TrimSpace(line)) == 0 && len(bytes.TrimSpace(raw)) > 0 {
			return Event{Raw: raw}, nil
		}
	}
}

// line reads one line with its newline, no longer than the bound.
func (r *Reader) line() ([]byte, error) {
	var line []byte
	for {
		frag, err := r.r.ReadSlice('\n')
		line = append(line, frag...)
		if len(line) > r.max {
			return nil, ErrLineTooLong
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, err
	}
}

// Scanner follows a stream that something else reads: Write it the bytes
// as they pass, and it calls OnData with the payload of every complete
// data: line. A line longer than the bound is skipped whole, and Err
// reports it from then on.
type Scanner struct {
	// OnData is called with each data: line's payload (see DataOf). The
	// slice is only valid during the call.
	OnData func(data []byte)
	// Max bounds a line's length; 0 means MaxLine.
	Max int

	line []byte // the partial line so far
	skip bool   // the current line is over the bound: drop it to its end
	err  error
}

// Write feeds p to the scanner. It never fails, so a Scanner can sit in an
// io.MultiWriter or an io.TeeReader.
func (s *Scanner) Write(p []byte) (int, error) {
	n := len(p)
	limit := s.Max
	if limit <= 0 {
		limit = MaxLine
	}
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.keep(p, limit)
			break
		}
		s.keep(p[:i], limit)
		if !s.skip {
			if d, ok := DataOf(s.line); ok && s.OnData != nil {
				s.OnData(d)
			}
		}
		s.line, s.skip = s.line[:0], false
		p = p[i+1:]
	}
	return n, nil
}

// keep adds part of a line, or starts skipping it past the bound.
func (s *Scanner) keep(p []byte, limit int) {
	if s.skip {
		return
	}
	if len(s.line)+len(p) > limit {
		s.line, s.skip, s.err = nil, true, ErrLineTooLong
		return
	}
	s.line = append(s.line, p...)
}

// Err is ErrLineTooLong once a line went over the bound, nil before.
func (s *Scanner) Err() error { return s.err }

// Chunk is a chat completion stream event's data, as much as drill reads of
// it: the choices' deltas and the usage chunk.
type Chunk struct {
	Choices []struct {
		Delta struct {
			Content   string          `json:"content"`
			Refusal   string          `json:"refusal"`
			ToolCalls json.RawMessage `json:"tool_calls"`
		} `json:"delta"`
	} `json:"choices"`
	Usage *Usage `json:"usage"`
}

// Usage is a completion's token usage as the provider reports it.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// ParseChunk decodes one data: payload as a chat completion chunk.
func ParseChunk(data []byte) (Chunk, error) {
	var c Chunk
	err := json.Unmarshal(data, &c)
	return c, err
}

// Content is the text of the chunk's content deltas.
func (c Chunk) Content() string {
	if len(c.Choices) == 1 {
		return c.Choices[0].Delta.Content
	}
	var b strings.Builder
	for _, ch := range c.Choices {
		b.WriteString(ch.Delta.Content)
	}
	return b.String()
}

// HasDelta reports whether the chunk carries anything of the answer:
// content, a refusal or a tool call (a stream's first token).
func (c Chunk) HasDelta() bool {
	for _, ch := range c.Choices {
		if ch.Delta.Content != "" || ch.Delta.Refusal != "" || len(ch.Delta.ToolCalls) > 0 {
			return true
		}
	}
	return false
}
