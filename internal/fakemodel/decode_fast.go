package fakemodel

import (
	"bytes"
	"io"
	"math"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/drill-dev/drill/internal/jsonscan"
)

// The fake model's request path decodes each body once, by hand, when it
// has one of the shapes openai-go sends for drill's requests — the triage
// workload's and the chat agent's: a top-level object with model,
// messages, response_format, stream, stream_options, n, the token limits,
// tools, tool_choice and parallel_tool_calls. Messages are system,
// developer, user, assistant or tool messages with string content; an
// assistant message may carry tool_calls (id, type "function", function
// name and arguments) and leave its content out or null; a tool message
// carries its tool_call_id. Anything else — another key, any other null, a
// duplicate key, an escaped key, a number out of range, invalid UTF-8, a
// lone surrogate, content as parts — falls back to DecodeRequest, the
// strict validator, which gives OpenAI's error or its decoding. The values
// of response_format, tools, tool_choice and parallel_tool_calls are
// handed, as text, to the strict path's own code (decodeFormat through a
// cache, applyTools, which checks the order of tool calls and results
// too), and a refusal there also falls back. So the fast path never
// answers where the strict one would refuse, and never decodes
// differently from it (the package's TestMain checks both on every request
// its tests send, the agent's conversations through openai-go among them).
//
// Why: the strict validator decodes into maps of raw messages and then
// decodes each value again, and the strict json_schema (the same on every
// triage request) is decoded into maps and checked on every call: a third
// of the CPU of a drill against the in-process fake model, and half of an
// agent call's, whose whole history is resent on every turn.

// decodeRequest decodes a chat-completion request body: the fast path for
// the shapes the SDK sends, DecodeRequest for everything else.
func decodeRequest(body []byte) (*ChatRequest, *APIError) {
	req, ok := decodeFast(body)
	if fastDecodeChecked != nil {
		fastDecodeChecked(body, req)
	}
	if ok {
		return req, nil
	}
	return DecodeRequest(body)
}

// readBody reads r to its end into a buffer sized for length bytes (a
// request's Content-Length; unknown when not above 0, and never taken past
// MaxRequestBytes), so a body of known length is read without regrowing.
func readBody(r io.Reader, length int64) ([]byte, error) {
	if length <= 0 || length > MaxRequestBytes {
		return io.ReadAll(r)
	}
	buf := bytes.NewBuffer(make([]byte, 0, length+bytes.MinRead))
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}

// fastDecodeChecked, when set (by the package's TestMain), sees every body
// the server decodes and the fast path's decoding of it (nil when the fast
// path left it to DecodeRequest).
var fastDecodeChecked func(body []byte, fast *ChatRequest)

// formats caches the decoded and checked response_format of requests by its
// JSON text: a drill sends the same strict schema with every request, so it
// is decoded and checked once. Cached formats are shared between requests
// and never modified (render and respond only read them). The cache holds
// at most formatCacheEntries formats of at most formatCacheMaxBytes each;
// past that, formats are decoded afresh each time.
var formats = struct {
	sync.RWMutex
	m map[string]ResponseFormat
}{m: map[string]ResponseFormat{}}

const (
	formatCacheEntries  = 64
	formatCacheMaxBytes = 64 << 10
)

// decodeFast decodes body if it has one of the SDK's shapes and is valid;
// ok is false when the strict validator must decide.
func decodeFast(body []byte) (req *ChatRequest, ok bool) {
	d := fastDecoder{b: body}
	d.space()
	if !d.byte('{') {
		return nil, false
	}
	f := fastRequest{req: &ChatRequest{Format: ResponseFormat{Type: "text"}, N: 1}, maxTokens: -1, maxComplete: -1}
	d.space()
	if d.peek() == '}' {
		return nil, false // no model, no messages: the strict path says which
	}
	for {
		d.space()
		key, ok := d.key()
		if !ok {
			return nil, false
		}
		d.space()
		if !d.byte(':') {
			return nil, false
		}
		d.space()
		bit, ok := f.field(&d, key)
		if !ok || f.seen&bit != 0 {
			return nil, false // a duplicate key: the strict path keeps the last
		}
		f.seen |= bit
		d.space()
		if d.byte('}') {
			break
		}
		if !d.byte(',') {
			return nil, false
		}
	}
	d.space()
	if d.i != len(body) {
		return nil, false
	}
	return f.finish()
}

// fastRequest is a request as the fast path reads it: the fields read so
// far (one bit each in seen) and the texts left to the strict path's code.
type fastRequest struct {
	req                             *ChatRequest
	seen                            uint16
	format, tools, choice, parallel []byte
	streamOpts                      bool
	maxTokens, maxComplete          int
}

// field reads the value of key into f, and returns the key's bit; an
// unknown key, or a value the fast path does not take, is not ok.
func (f *fastRequest) field(d *fastDecoder, key string) (bit uint16, ok bool) {
	req := f.req
	switch key {
	case "model":
		req.Model, ok = d.str()
		return 1 << 0, ok && req.Model != ""
	case "messages":
		req.Messages, ok = d.messages()
		return 1 << 1, ok
	case "response_format":
		start := d.i
		ok = d.skip()
		f.format = d.b[start:d.i]
		return 1 << 2, ok
	case "stream":
		req.Stream, ok = d.boolean()
		return 1 << 3, ok
	case "stream_options":
		req.IncludeUsage, ok = d.streamOptions()
		f.streamOpts = true
		return 1 << 4, ok
	case "n":
		req.N, ok = d.integer(1, 128)
		return 1 << 5, ok
	case "max_completion_tokens":
		f.maxComplete, ok = d.integer(1, math.MaxInt32)
		return 1 << 6, ok
	case "max_tokens":
		f.maxTokens, ok = d.integer(1, math.MaxInt32)
		return 1 << 7, ok
	case "tools":
		f.tools, ok = d.value()
		return 1 << 8, ok
	case "tool_choice":
		f.choice, ok = d.value()
		return 1 << 9, ok
	case "parallel_tool_calls":
		f.parallel, ok = d.value()
		return 1 << 10, ok
	}
	return 0, false
}

// finish checks what needs the whole object (model and messages given,
// stream_options only with stream) and sets what depends on several
// fields: the token limit, the format and the tools.
func (f *fastRequest) finish() (*ChatRequest, bool) {
	req := f.req
	if f.seen&3 != 3 || (f.streamOpts && !req.Stream) {
		return nil, false
	}
	// The smaller limit when both are given, as DecodeRequest.
	for _, v := range []int{f.maxComplete, f.maxTokens} {
		if v > 0 && (req.MaxTokens == 0 || v < req.MaxTokens) {
			req.MaxTokens = v
		}
	}
	if f.format != nil && !fastFormat(f.format, req) {
		return nil, false
	}
	// The tool parameters and the order of tool calls and results: the
	// strict path's own code, on the same texts; whatever it refuses is
	// left to the strict path to refuse.
	if applyTools(req, f.tools, f.choice, f.parallel) != nil {
		return nil, false
	}
	return req, true
}

// fastFormat sets req.Format from a response_format's JSON text: from the
// cache, or decoded and checked by decodeFormat, the strict path's own
// code. json_object formats depend on the messages and are not cached.
func fastFormat(raw []byte, req *ChatRequest) bool {
	formats.RLock()
	f, ok := formats.m[string(raw)]
	formats.RUnlock()
	if ok {
		req.Format = f
		return true
	}
	if decodeFormat(raw, req) != nil {
		return false
	}
	if t := req.Format.Type; (t == "json_schema" || t == "text") && len(raw) <= formatCacheMaxBytes {
		formats.Lock()
		if len(formats.m) < formatCacheEntries {
			formats.m[string(raw)] = req.Format
		}
		formats.Unlock()
	}
	return true
}

// fastDecoder reads JSON from b at i. Every method returns false for
// anything it does not take, leaving the request to the strict path.
type fastDecoder struct {
	b []byte
	i int
}

func (d *fastDecoder) space() { d.i = jsonscan.Space(d.b, d.i) }

func (d *fastDecoder) peek() byte {
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

// byte consumes c if it is next.
func (d *fastDecoder) byte(c byte) bool {
	if d.peek() == c {
		d.i++
		return true
	}
	return false
}

// key reads an object key without escapes (a key with one is the strict
// path's) and returns it without copying: it is only compared.
func (d *fastDecoder) key() (string, bool) {
	if !d.byte('"') {
		return "", false
	}
	start := d.i
	for d.i < len(d.b) {
		switch c := d.b[d.i]; {
		case c == '"':
			k := d.b[start:d.i]
			d.i++
			return unsafeString(k), true
		case c == '\\' || c < 0x20 || c >= utf8.RuneSelf:
			return "", false
		}
		d.i++
	}
	return "", false
}

// str reads a JSON string as encoding/json decodes it. It declines invalid
// UTF-8 and lone surrogates, which encoding/json replaces with U+FFFD.
// Long strings seen before (a drill's system prompt, its emails) come from
// the texts cache without decoding or allocating.
func (d *fastDecoder) str() (string, bool) {
	if !d.byte('"') {
		return "", false
	}
	start := d.i
	// A long string seen before is found by its closing quote alone
	// (stringEnd, with IndexByte): the cache holds only texts the loop
	// below has taken, so a hit needs no byte-by-byte check.
	if end := jsonscan.StringEnd(d.b, start); end < len(d.b) {
		if n := end - start; n >= textCacheMinBytes && n <= textCacheMaxBytes {
			texts.RLock()
			s, ok := texts.m[string(d.b[start:end])]
			texts.RUnlock()
			if ok {
				d.i = end + 1
				return s, true
			}
		}
	}
	escaped, ascii := false, true
	for d.i < len(d.b) && d.b[d.i] != '"' {
		switch c := d.b[d.i]; {
		case c == '\\':
			escaped = true
			d.i++ // the escaped byte cannot end the string
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
		d.i++
	}
	if d.i >= len(d.b) {
		return "", false
	}
	raw := d.b[start:d.i]
	d.i++ // the closing quote
	cacheable := len(raw) >= textCacheMinBytes && len(raw) <= textCacheMaxBytes
	var s string
	if escaped {
		var ok bool
		if s, ok = jsonscan.UnescapeString(raw); !ok {
			return "", false
		}
	} else {
		if !ascii && !utf8.Valid(raw) {
			return "", false
		}
		s = string(raw)
	}
	if cacheable {
		texts.Lock()
		if texts.bytes+len(raw)+len(s) <= textCacheTotalBytes {
			if _, ok := texts.m[string(raw)]; !ok {
				texts.m[string(raw)] = s
				texts.bytes += len(raw) + len(s)
			}
		}
		texts.Unlock()
	}
	return s, true
}

// texts caches the decoding of long JSON strings by their JSON text: a
// drill sends the same system prompt with every request and cycles through
// its emails. It fills up to textCacheTotalBytes and then stays as it is;
// strings past it are decoded afresh.
var texts = struct {
	sync.RWMutex
	m     map[string]string
	bytes int
}{m: map[string]string{}}

const (
	textCacheMinBytes   = 64
	textCacheMaxBytes   = 16 << 10
	textCacheTotalBytes = 4 << 20
)

func (d *fastDecoder) literal(s string) bool {
	if len(d.b)-d.i >= len(s) && string(d.b[d.i:d.i+len(s)]) == s {
		d.i += len(s)
		return true
	}
	return false
}

func (d *fastDecoder) boolean() (bool, bool) {
	switch {
	case d.literal("true"):
		return true, true
	case d.literal("false"):
		return false, true
	}
	return false, false
}

// integer reads a whole number written without fraction or exponent, within
// [lo, hi].
func (d *fastDecoder) integer(lo, hi int) (int, bool) {
	start := d.i
	for d.i < len(d.b) && '0' <= d.b[d.i] && d.b[d.i] <= '9' {
		d.i++
	}
	digits := d.b[start:d.i]
	if len(digits) == 0 || len(digits) > 10 || (digits[0] == '0' && len(digits) > 1) {
		return 0, false
	}
	switch d.peek() {
	case '.', 'e', 'E':
		return 0, false
	}
	n := 0
	for _, c := range digits {
		n = n*10 + int(c-'0')
	}
	return n, lo <= n && n <= hi
}

// streamOptions reads {"include_usage": bool} (or {}).
func (d *fastDecoder) streamOptions() (bool, bool) {
	if !d.byte('{') {
		return false, false
	}
	d.space()
	if d.byte('}') {
		return false, true
	}
	d.space()
	if k, ok := d.key(); !ok || k != "include_usage" {
		return false, false
	}
	d.space()
	if !d.byte(':') {
		return false, false
	}
	d.space()
	v, ok := d.boolean()
	d.space()
	return v, ok && d.byte('}')
}

// fastRoles are the roles the fast path takes.
var fastRoles = [...]string{"system", "developer", "user", "assistant", "tool"}

// messages reads a non-empty array of messages (see message).
func (d *fastDecoder) messages() ([]Message, bool) {
	if !d.byte('[') {
		return nil, false
	}
	msgs := make([]Message, 0, 4)
	for {
		d.space()
		m, ok := d.message()
		if !ok {
			return nil, false
		}
		msgs = append(msgs, m)
		d.space()
		if d.byte(']') {
			return msgs, true
		}
		if !d.byte(',') {
			return nil, false
		}
	}
}

// message reads one message: a role and string content, keys in any order
// and nothing else, but for an assistant message's tool_calls (its content
// then optional, or null) and a tool message's tool_call_id (which it must
// have). Each key at most once, no other null: the strict path decides the
// rest.
func (d *fastDecoder) message() (Message, bool) {
	var m Message
	if !d.byte('{') {
		return m, false
	}
	var hasRole, hasContent, nullContent, hasCalls, hasCallID bool
	for {
		d.space()
		k, ok := d.key()
		if !ok {
			return m, false
		}
		d.space()
		if !d.byte(':') {
			return m, false
		}
		d.space()
		switch {
		case k == "role" && !hasRole:
			hasRole = true
			m.Role, ok = d.role()
		case k == "content" && !hasContent:
			hasContent = true
			if d.peek() == 'n' {
				ok, nullContent = d.literal("null"), true
			} else {
				m.Content, ok = d.str()
			}
		case k == "tool_calls" && !hasCalls:
			hasCalls = true
			m.ToolCalls, ok = d.toolCalls()
		case k == "tool_call_id" && !hasCallID:
			hasCallID = true
			m.ToolCallID, ok = d.str()
		default:
			ok = false
		}
		if !ok {
			return m, false
		}
		d.space()
		if d.byte('}') {
			break
		}
		if !d.byte(',') {
			return m, false
		}
	}
	// As DecodeRequest and decodeToolFields: tool_calls only on an
	// assistant message, whose content may be left out or null; content
	// on every other message; tool_call_id required on a tool message
	// (and, on others, left to the strict path, which ignores it).
	hasText := hasContent && !nullContent
	switch m.Role {
	case "assistant":
		return m, !hasCallID
	case "tool":
		return m, hasText && hasCallID && !hasCalls
	}
	return m, hasRole && hasText && !hasCalls && !hasCallID
}

// toolCalls reads an assistant message's tool_calls: an array of
// {"id": "...", "type": "function", "function": {"name": "...",
// "arguments": "..."}} (arguments may be left out), keys in any order and
// nothing else, id and name not empty. An empty array is nil, as
// decodeToolFields gives it.
func (d *fastDecoder) toolCalls() ([]ToolCall, bool) {
	if !d.byte('[') {
		return nil, false
	}
	d.space()
	if d.byte(']') {
		return nil, true
	}
	var calls []ToolCall
	for {
		d.space()
		c, ok := d.toolCall()
		if !ok {
			return nil, false
		}
		calls = append(calls, c)
		d.space()
		if d.byte(']') {
			return calls, true
		}
		if !d.byte(',') {
			return nil, false
		}
	}
}

func (d *fastDecoder) toolCall() (ToolCall, bool) {
	var c ToolCall
	var hasID, hasType, hasFunction bool
	ok := d.object(func(k string) bool {
		var ok bool
		switch {
		case k == "id" && !hasID:
			hasID = true
			c.ID, ok = d.str()
		case k == "type" && !hasType:
			hasType = true
			t, isKey := d.key()
			ok = isKey && t == "function"
		case k == "function" && !hasFunction:
			hasFunction = true
			var hasName, hasArgs bool
			ok = d.object(func(k string) bool {
				var ok bool
				switch {
				case k == "name" && !hasName:
					hasName = true
					c.Name, ok = d.str()
				case k == "arguments" && !hasArgs:
					hasArgs = true
					c.Arguments, ok = d.str()
				}
				return ok
			})
		}
		return ok
	})
	return c, ok && c.ID != "" && hasType && c.Name != ""
}

// object reads a JSON object, calling field for each key with the decoder
// at its value, which field reads (false to decline). An empty object is
// taken.
func (d *fastDecoder) object(field func(key string) bool) bool {
	if !d.byte('{') {
		return false
	}
	d.space()
	if d.byte('}') {
		return true
	}
	for {
		d.space()
		k, ok := d.key()
		if !ok {
			return false
		}
		d.space()
		if !d.byte(':') {
			return false
		}
		d.space()
		if !field(k) {
			return false
		}
		d.space()
		if d.byte('}') {
			return true
		}
		if !d.byte(',') {
			return false
		}
	}
}

// value reads one JSON value other than null and returns its text (not
// copied: it is only read, while the body is live). Whether it is valid is
// for the strict path's code that decodes it to say (applyTools).
func (d *fastDecoder) value() ([]byte, bool) {
	if d.peek() == 'n' {
		return nil, false // null: the strict path's
	}
	start := d.i
	switch d.peek() {
	case '{', '[', '"':
		if !d.skip() {
			return nil, false
		}
	case 't', 'f':
		if _, ok := d.boolean(); !ok {
			return nil, false
		}
	default:
		return nil, false
	}
	return d.b[start:d.i], true
}

// role reads a role among fastRoles, returning the package's own string
// (no allocation).
func (d *fastDecoder) role() (string, bool) {
	k, ok := d.key()
	if !ok {
		return "", false
	}
	for _, r := range fastRoles {
		if k == r {
			return r, true
		}
	}
	return "", false
}

// skip moves past one JSON value, following strings and nesting only: it
// finds the end of a valid value. Whether the value is valid is for
// encoding/json to say (fastFormat decodes it unless the cache holds the
// very same text, which was valid).
func (d *fastDecoder) skip() bool {
	depth := 0
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case '"':
			if d.i = jsonscan.StringEnd(d.b, d.i+1); d.i >= len(d.b) {
				return false
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth < 0 {
				return false
			}
		}
		d.i++
		if depth == 0 {
			return true
		}
	}
	return false
}

// unsafeString views b as a string without copying; the string must not
// outlive b or be kept (keys are only compared).
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
