package workload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/jsonscan"
	"github.com/drill-dev/drill/internal/price"
	"github.com/drill-dev/drill/internal/sse"
)

// maxUsageBody is the most of a non-streamed answer's body kept to read its
// usage from; a larger body's usage is estimated.
const maxUsageBody = 4 << 20

// ErrMaxSpend is the error an attempt gets, instead of being sent, when its
// estimated cost would take the run's spend over Config.MaxSpend.
var ErrMaxSpend = errors.New("max spend reached")

// meter prices every attempt's usage and guards the run's spend: before an
// attempt is sent it estimates the attempt's cost from the request's size and
// aborts the run if the spend so far, the estimates of the attempts in flight
// and this one would exceed the limit. Safe for concurrent use.
type meter struct {
	prices price.Table
	max    float64      // 0: no limit
	abort  func(string) // aborts the run with a reason

	mu       sync.Mutex
	spent    float64        // cost of the usage recorded so far
	reserved float64        // estimated cost of the attempts in flight
	maxOut   map[string]int // largest output tokens reported so far, per model
}

func newMeter(prices price.Table, maxSpend float64, abort func(string)) *meter {
	return &meter{prices: prices, max: maxSpend, abort: abort, maxOut: map[string]int{}}
}

// usage prices in and out tokens on model.
func (m *meter) usage(model string, in, out int, estimated bool) *event.Usage {
	u := &event.Usage{InputTokens: in, OutputTokens: out, Estimated: estimated}
	if m == nil {
		return u
	}
	u.Cost, u.Priced = m.prices.Cost(model, in, out)
	return u
}

// requestInfo reads what the spend guard and the estimates need from a
// request: its body's size in bytes and, when limit is set (a spend guard
// is on), the output tokens it allows (max_completion_tokens or max_tokens;
// 0 when it sets neither). Without limit a known Content-Length is enough
// and the body is not read.
func requestInfo(req *http.Request, limit bool) (size int64, maxOut int) {
	size = req.ContentLength
	if !limit && size >= 0 {
		return size, 0
	}
	if req.GetBody == nil {
		return max(size, 0), 0
	}
	body, err := req.GetBody()
	if err != nil {
		return max(size, 0), 0
	}
	defer body.Close()
	b, err := io.ReadAll(io.LimitReader(body, maxUsageBody))
	if err != nil {
		return max(size, 0), 0
	}
	var p struct {
		MaxCompletionTokens int `json:"max_completion_tokens"`
		MaxTokens           int `json:"max_tokens"`
	}
	_ = json.Unmarshal(b, &p) // a body that is not JSON allows any output
	return max(size, int64(len(b))), max(p.MaxCompletionTokens, p.MaxTokens)
}

// limited reports whether the meter guards a spend limit.
func (m *meter) limited() bool { return m != nil && m.max > 0 }

// admit reserves an attempt's estimated cost before it is sent: its input
// tokens from the request's size, and its output tokens from the request's
// own limit, else the most this model has answered with so far. When the
// spend would exceed the limit it aborts the run and returns ErrMaxSpend;
// the attempt must not be sent. It returns the reservation to settle.
func (m *meter) admit(model string, size int64, allowedOut int) (float64, error) {
	if m == nil || m.max <= 0 {
		return 0, nil
	}
	m.mu.Lock()
	out := allowedOut
	if out == 0 {
		out = m.maxOut[model]
	}
	est, _ := m.prices.Cost(model, int(size/inject.BytesPerToken), out)
	total := m.spent + m.reserved + est
	if total > m.max {
		spent, reserved := m.spent, m.reserved
		m.mu.Unlock()
		reason := fmt.Sprintf("max spend %s: the next call to %s (estimated %s) would bring the spend to %s (spent %s, %s in flight)",
			format.Money(m.max), model, format.Money(est), format.Money(total), format.Money(spent), format.Money(reserved))
		m.abort(reason)
		return 0, fmt.Errorf("%w: %s", ErrMaxSpend, reason)
	}
	m.reserved += est
	m.mu.Unlock()
	return est, nil
}

// settle replaces an attempt's reservation by its usage (nil: none billed).
func (m *meter) settle(model string, reservation float64, u *event.Usage) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reserved -= reservation
	if m.reserved < 0 {
		m.reserved = 0
	}
	if u != nil {
		m.spent += u.Cost
		if !u.Estimated && u.OutputTokens > m.maxOut[model] {
			m.maxOut[model] = u.OutputTokens
		}
	}
}

// usageBody wraps a 200 answer's body: it reads the provider's usage as the
// SDK reads the body (a stream's usage chunk, or the whole answer's usage
// field) and, when the body is closed, logs the attempt's usage once, with
// an estimate if the provider reported none.
type usageBody struct {
	body   io.ReadCloser
	stream bool
	done   func(in, out int, reported bool, received int64)

	buf      *bytes.Buffer // a non-streamed body, from bodyBuffers until finish
	lines    sse.Scanner   // a stream's data: lines
	received int64         // bytes read
	content  int64         // a stream's content bytes read (the text of its deltas)
	in, out  int
	reported bool
	once     sync.Once
}

func (b *usageBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	if n > 0 {
		b.received += int64(n)
		if b.stream {
			if b.lines.OnData == nil {
				b.lines.OnData = b.chunk
			}
			b.lines.Write(p[:n])
		} else if b.buf != nil && b.buf.Len()+n <= maxUsageBody {
			b.buf.Write(p[:n])
		}
	}
	if errors.Is(err, io.EOF) {
		b.finish()
	}
	return n, err
}

// chunk reads one stream chunk's data: a usage, or content to estimate from.
func (b *usageBody) chunk(data []byte) {
	c, err := sse.ParseChunk(data)
	if err != nil {
		return
	}
	b.content += int64(len(c.Content()))
	if c.Usage != nil && plausible(*c.Usage) {
		b.in, b.out, b.reported = c.Usage.PromptTokens, c.Usage.CompletionTokens, true
	}
}

// finish reads a non-streamed body's usage; called at EOF and on Close.
func (b *usageBody) finish() {
	b.once.Do(func() {
		received := b.received
		if b.stream {
			received = b.content
		} else if u := usageOf(b.buf.Bytes()); u != nil && plausible(*u) {
			b.in, b.out, b.reported = u.PromptTokens, u.CompletionTokens, true
		}
		if b.buf != nil {
			b.buf.Reset()
			bodyBuffers.Put(b.buf)
			b.buf = nil
		}
		b.done(b.in, b.out, b.reported, received)
	})
}

func (b *usageBody) Close() error {
	err := b.body.Close()
	b.finish()
	return err
}

// bodyBuffers holds the buffers non-streamed answers are read into, so an
// attempt's usage costs no new buffer once the run is warm.
var bodyBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// newUsageBody wraps body; done is called once, when it is read or closed.
func newUsageBody(body io.ReadCloser, stream bool, done func(in, out int, reported bool, received int64)) *usageBody {
	b := &usageBody{body: body, stream: stream, done: done}
	if !stream {
		b.buf = bodyBuffers.Get().(*bytes.Buffer)
	}
	return b
}

// usageOf is the "usage" member of a non-streamed answer's top-level
// object, as json.Unmarshal into struct{ Usage *sse.Usage } reads it (the
// last such member, its name matched without regard to case), without
// decoding the rest of the answer: nil if the body is not valid JSON, has
// no usage, or its usage does not decode.
func usageOf(body []byte) *sse.Usage {
	if !json.Valid(body) {
		return nil
	}
	var value []byte // the last top-level usage member's value
	depth, inString := 0, false
	keyStart := -1 // where a string at depth 1 began, while it may be a key
	for i := 0; i < len(body); i++ {
		c := body[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
				if keyStart >= 0 && bytes.EqualFold(body[keyStart:i], []byte("usage")) {
					if v, ok := memberValue(body, i+1); ok {
						value = v
					}
				}
				keyStart = -1
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			if depth == 1 {
				keyStart = i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
	}
	if value == nil || string(value) == "null" {
		return nil
	}
	u, ok := plainUsage(value)
	if !ok && json.Unmarshal(value, &u) != nil {
		return nil
	}
	return &u
}

// plainUsage reads a usage object of the usual shape, as json.Unmarshal
// would: keys among prompt_tokens, completion_tokens and total_tokens
// exactly as OpenAI spells them, each at most once, each value plain
// digits. ok is false for any other value (a key in another case or
// unknown, a repeat, a sign, a fraction, an exponent, a null, ...), which
// json.Unmarshal reads. v is valid JSON (usageOf checked the body).
func plainUsage(v []byte) (u sse.Usage, ok bool) {
	s := jsonscan.New(v)
	var seen [3]bool
	ok = s.Object(func(key []byte) bool {
		field := slices.Index(usageKeys, string(key))
		if field < 0 || seen[field] {
			return false
		}
		seen[field] = true
		n, ok := s.Uint()
		switch field {
		case 0:
			u.PromptTokens = n
		case 1:
			u.CompletionTokens = n
		}
		return ok
	})
	if !ok || !s.End() {
		return sse.Usage{}, false
	}
	return u, true
}

// usageKeys are the keys of a usage object plainUsage reads, in the order
// of its fields.
var usageKeys = []string{"prompt_tokens", "completion_tokens", "total_tokens"}

// memberValue returns the value after a key that ends just before i in
// valid JSON (":" then the value), or false if the string was not a key.
func memberValue(body []byte, i int) ([]byte, bool) {
	i = jsonscan.Space(body, i)
	if i >= len(body) || body[i] != ':' {
		return nil, false // a string value, not a key
	}
	i = jsonscan.Space(body, i+1)
	start, depth, inString := i, 0, false
	for ; i < len(body); i++ {
		c := body[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
				if depth == 0 {
					return body[start : i+1], true
				}
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return body[start:i], true // a scalar ended by its object's end
			}
			depth--
			if depth == 0 {
				return body[start : i+1], true
			}
		case ',':
			if depth == 0 {
				return body[start:i], true
			}
		}
	}
	return body[start:], true
}

// plausible reports whether a reported usage is one any model could give
// (edge.Tokens); past it the usage is estimated instead, so a broken
// upstream cannot make a cost without bound.
func plausible(u sse.Usage) bool {
	return edge.Tokens(u.PromptTokens) && edge.Tokens(u.CompletionTokens)
}
