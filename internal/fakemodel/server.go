package fakemodel

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/bits"
	"mime"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/drill-dev/drill/internal/answer"
	"github.com/drill-dev/drill/internal/jsonscan"
)

// DefaultSeed is the latency seed of the fake model's own tests and
// benchmarks. With it, over the 120 emails, gpt-5.4-mini has five calls
// over 3 s, one of them email 27, sent at 13.0 s: the chapter's healthy call
// cut off by a 3 s limit just before the outage. drill's commands (run,
// compare, eval, fake-model) default to workload.DefaultSeed, 1, instead.
const DefaultSeed = 23

// Options configures a Server. The zero value is usable: seed 0, every
// profile's default latency, no API key required.
type Options struct {
	// Seed seeds every call's latency draw, together with the model, the
	// request body and the X-Stainless-Retry-Count header.
	Seed int64
	// LatencyScale multiplies every latency (first-token delay and token
	// rate). 0 means 1, the profile defaults, so that a zero Options is
	// realistic; use NoLatency for no waiting at all. Negative values are
	// treated as NoLatency.
	LatencyScale float64
	// NoLatency turns every wait off: answers come at once.
	NoLatency bool
	// RequireKey, if set, is the key requests must present as
	// "Authorization: Bearer <key>"; others get 401 (GET /health excepted).
	RequireKey string
	// Log, if set, receives one line per request (see Server.ServeHTTP):
	// time, request id, method, path, model, stream, status, tokens and
	// duration. It never holds a key or message text.
	Log io.Writer
}

// Server is the fake model. It is an http.Handler; it is safe for
// concurrent use and keeps no state between requests beyond a bounded memo
// of answers (an answer is a pure function of the text).
type Server struct {
	opts  Options
	scale float64 // 0 = no latency
	logMu sync.Mutex
}

// New returns a server with opts.
func New(opts Options) *Server {
	s := &Server{opts: opts, scale: opts.LatencyScale}
	switch {
	case opts.NoLatency || opts.LatencyScale < 0:
		s.scale = 0
	case opts.LatencyScale == 0:
		s.scale = 1
	}
	return s
}

// Models returns the names of the built-in profiles this server answers as.
func (s *Server) Models() []string { return Models() }

// Latency returns the wait before this server answers (or, streamed, sends
// its first chunk) for a request body to model on retry number retry, with
// the server's seed and scale applied.
func (s *Server) Latency(model string, body []byte, retry int) time.Duration {
	if s.scale == 0 {
		return 0
	}
	return time.Duration(float64(Latency(s.opts.Seed, model, body, retry)) * s.scale)
}

// ServeHTTP serves the OpenAI-compatible API: POST /v1/chat/completions,
// GET /v1/models and GET /v1/models/{id}, plus GET /health. The "/v1" prefix
// is optional. Every response carries an x-request-id header.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Body != nil {
		defer r.Body.Close()
	}
	info := &requestInfo{id: newRequestID(), start: time.Now()}
	w.Header().Set("X-Request-Id", info.id)
	if s.opts.Log != nil {
		lw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		defer func() { s.logRequest(r, lw.status, info) }()
		w = lw
	}
	path := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/v1"), "/")
	if r.URL.Path == "/health" || r.URL.Path == "/healthz" {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, &APIError{Status: http.StatusMethodNotAllowed, Type: "invalid_request_error",
				Message: fmt.Sprintf("Invalid method for URL (%s %s). Use GET.", r.Method, r.URL.Path)})
			return
		}
		writeJSON(w, struct {
			Status string   `json:"status"`
			Models []string `json:"models"`
		}{"ok", Models()})
		return
	}
	if s.opts.RequireKey != "" && !s.authorized(r) {
		e := &APIError{Status: http.StatusUnauthorized, Type: "invalid_request_error", Code: strp("invalid_api_key"),
			Message: "You didn't provide a valid API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."}
		if r.Header.Get("Authorization") != "" {
			e.Message = "Incorrect API key provided."
		}
		writeError(w, e)
		return
	}
	switch {
	case path == "/chat/completions":
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeError(w, &APIError{Status: http.StatusMethodNotAllowed, Type: "invalid_request_error",
				Message: fmt.Sprintf("Invalid method for URL (%s %s). Use POST.", r.Method, r.URL.Path)})
			return
		}
		s.chat(w, r, info)
	case path == "/models" || strings.HasPrefix(path, "/models/"):
		if r.Method != http.MethodGet {
			w.Header().Set("Allow", http.MethodGet)
			writeError(w, &APIError{Status: http.StatusMethodNotAllowed, Type: "invalid_request_error",
				Message: fmt.Sprintf("Invalid method for URL (%s %s). Use GET.", r.Method, r.URL.Path)})
			return
		}
		s.models(w, strings.TrimPrefix(strings.TrimPrefix(path, "/models"), "/"))
	default:
		writeError(w, &APIError{Status: http.StatusNotFound, Type: "invalid_request_error", Code: strp("unknown_url"),
			Message: fmt.Sprintf("Invalid URL (%s %s)", r.Method, r.URL.Path)})
	}
}

func (s *Server) authorized(r *http.Request) bool {
	h := r.Header.Get("Authorization")
	key, ok := strings.CutPrefix(h, "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(key)), []byte(s.opts.RequireKey)) == 1
}

type modelObject struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

// created is the fixed creation time reported for the built-in models.
const created = 1790000000

func (s *Server) models(w http.ResponseWriter, id string) {
	if id != "" {
		if _, ok := profiles[id]; !ok {
			writeError(w, modelNotFound(id))
			return
		}
		writeJSON(w, modelObject{id, "model", created, "drill"})
		return
	}
	list := struct {
		Object string        `json:"object"`
		Data   []modelObject `json:"data"`
	}{Object: "list"}
	for _, m := range Models() {
		list.Data = append(list.Data, modelObject{m, "model", created, "drill"})
	}
	writeJSON(w, list)
}

func writeJSON(w http.ResponseWriter, v any) {
	b, _ := json.Marshal(v)
	writeBody(w, b)
}

// writeBody writes b, one JSON value, and a newline as writeJSON does.
func writeBody(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(http.StatusOK)
	w.Write(append(b, '\n'))
}

// Usage is the token count of one answer (see countTokens: o200k_base,
// exact for ordinary text).
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// countUsage counts the tokens of req's messages and of its n answers of
// content.
func countUsage(req *ChatRequest, content string) Usage {
	u := Usage{PromptTokens: 3} // every reply is primed with 3 tokens
	for _, m := range req.Messages {
		u.PromptTokens += 3 + countTokens(m.Content)
	}
	u.CompletionTokens = req.N * countTokens(content)
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	return u
}

// isJSONContentType reports whether a Content-Type header names JSON. A
// request without the header is read as JSON too.
func isJSONContentType(ct string) bool {
	if strings.TrimSpace(ct) == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

// MaxJSONDepth is how deeply a request body may nest (objects and arrays
// together). A real request with a json_schema nests a few dozen levels at
// most; decoding one 4,900 deep cost 660 MB and 1.7 s, so a deeper body is
// refused before it is decoded.
const MaxJSONDepth = 64

// requestBody reads r's body, up to MaxRequestBytes. A body the in-process
// transport read whole and not yet read here is taken as its bytes; any
// other is read through http.MaxBytesReader.
func requestBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if mb, ok := r.Body.(*memBody); ok && len(mb.b) > 0 && mb.Len() == len(mb.b) && len(mb.b) <= MaxRequestBytes {
		mb.Reset(nil) // read: the body is the handler's now
		return mb.b, nil
	}
	return readBody(http.MaxBytesReader(w, r.Body, MaxRequestBytes), r.ContentLength)
}

// jsonDepth is the deepest nesting of objects and arrays in a JSON text,
// counted in one pass outside strings, without decoding it. Strings, most
// of a request's bytes, are passed over by jsonscan.StringEnd.
func jsonDepth(b []byte) int {
	depth, deepest := 0, 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = jsonscan.StringEnd(b, i+1)
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth--
		}
	}
	return deepest
}

// bigRequest is the body size from which a request's memory is handed back
// to the system when it ends (returnMemory).
const bigRequest = 1 << 20

// returnScheduled is set while a returnMemory run is scheduled.
var returnScheduled atomic.Bool

// returnMemory hands the memory large requests freed back to the system
// (debug.FreeOSMemory) a second after the request that asks, once for all
// the requests that end within that second: without it a burst of 4 MiB
// requests left the process at its peak size.
func returnMemory() {
	if returnScheduled.CompareAndSwap(false, true) {
		time.AfterFunc(time.Second, func() {
			returnScheduled.Store(false)
			debug.FreeOSMemory()
		})
	}
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request, info *requestInfo) {
	if ct := r.Header.Get("Content-Type"); !isJSONContentType(ct) {
		writeError(w, &APIError{Status: http.StatusUnsupportedMediaType, Type: "invalid_request_error", Code: strp("unsupported_content_type"),
			Message: fmt.Sprintf("Unsupported content type: '%s'. This API method only accepts 'application/json' requests, but you specified the header 'Content-Type: %s'. Please try again with a supported content type.", ct, ct)})
		return
	}
	body, err := requestBody(w, r)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, badRequest("", "request_too_large", "Request body too large: the limit is %d bytes.", MaxRequestBytes))
			return
		}
		if r.Context().Err() != nil {
			return
		}
		writeError(w, badRequest("", "", "Could not read the request body: %v", err))
		return
	}
	if len(body) >= bigRequest {
		defer returnMemory()
	}
	if depth := jsonDepth(body); depth > MaxJSONDepth {
		writeError(w, badRequest("", "invalid_json", "The request body nests deeper than %d levels.", MaxJSONDepth))
		return
	}
	req, apiErr := decodeRequest(body)
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	info.model, info.stream = req.Model, req.Stream
	p, ok := profiles[req.Model]
	if !ok {
		writeError(w, modelNotFound(req.Model))
		return
	}
	retry, _ := strconv.Atoi(r.Header.Get("X-Stainless-Retry-Count"))
	// The body is hashed once: the latency and the id are drawn from two
	// sources of the same seed, as Latency and callRand would draw them.
	seed := callSeed(s.opts.Seed, req.Model, body, retry)
	var wait time.Duration
	if s.scale != 0 {
		wait = time.Duration(float64(p.Latency.Draw(randOf(seed))) * s.scale)
	}
	if len(req.Tools) > 0 {
		s.serveAgent(w, r, req, p, seed, wait, info)
		return
	}

	full := respond(p.Reader, req)
	content, finish := full, "stop"
	if req.MaxTokens > 0 {
		if cut, was := truncateTokens(full, req.MaxTokens); was {
			content, finish = cut, "length"
		}
	}
	// Tokens are counted only where the usage is shown: in every answer
	// not streamed, in a stream that asks for it, and in the log.
	var usage Usage
	if !req.Stream || req.IncludeUsage || s.opts.Log != nil {
		usage = countUsage(req, content)
	}
	info.usage = usage
	id := hexID("chatcmpl-drill", randOf(seed).Uint64(), 16)
	s.write(r.Context(), w, req, p, wait, outgoing{id: id, content: content, finish: finish, usage: usage})
}

// hexID is prefix and v in lower-case hex, zero-padded to at least width
// digits: fmt.Sprintf(prefix+"%0*x", width, v) in one allocation.
func hexID(prefix string, v uint64, width int) string {
	var buf [64]byte
	b := append(buf[:0], prefix...)
	digits := max((bits.Len64(v)+3)/4, 1)
	for range width - digits {
		b = append(b, '0')
	}
	return string(strconv.AppendUint(b, v, 16))
}

// outgoing is one answer as the server writes it: content, or tool calls
// (with their ids), its id, finish reason and usage.
type outgoing struct {
	id      string
	content string
	calls   []ToolCall
	finish  string
	usage   Usage
}

// write waits wait (the call's latency) and writes out: whole, or streamed
// as OpenAI streams it. A stream sends a first delta with the role, then
// the content in pieces of about three tokens, or for each tool call a
// delta with its id and name and then its arguments in pieces, each piece
// after the time the profile takes to write it; then the finish reason
// and, when asked, the usage. Each delta goes to the n choices in turn.
// If the caller gives up, it stops writing.
func (s *Server) write(ctx context.Context, w http.ResponseWriter, req *ChatRequest, p profile, wait time.Duration, out outgoing) {
	if !sleep(ctx, wait) {
		return // the caller gave up: write nothing
	}
	now := time.Now().Unix()
	switch {
	case !req.Stream && len(out.calls) == 0:
		writeBody(w, appendAnswer(make([]byte, 0, 320+len(out.content)*req.N), out, req.Model, req.N, now))
	case !req.Stream:
		writeJSON(w, wholeToolCalls(req, out, now))
	default:
		perToken := time.Duration(0)
		if s.scale > 0 && p.Latency.TokensPerSecond > 0 {
			perToken = time.Duration(float64(time.Second) / p.Latency.TokensPerSecond * s.scale)
		}
		streamAnswer(ctx, w, req, out, now, perToken)
	}
}

// wholeToolCalls is a whole (not streamed) completion whose n choices
// each hold out's tool calls.
func wholeToolCalls(req *ChatRequest, out outgoing, now int64) completion {
	choices := make([]choice, req.N)
	for i := range choices {
		msg := &message{Role: "assistant"}
		if len(out.calls) == 0 {
			msg.Content = &out.content
		}
		for _, c := range out.calls {
			msg.ToolCalls = append(msg.ToolCalls, toolCallJSON{ID: c.ID, Type: "function", Function: functionJSON{Name: c.Name, Arguments: c.Arguments}})
		}
		choices[i] = choice{Index: i, Message: msg, FinishReason: out.finish}
	}
	return completion{
		ID: out.id, Object: "chat.completion", Created: now, Model: req.Model,
		Choices: choices, Usage: &out.usage, SystemFingerprint: "fp_drill",
	}
}

// chunker sends a stream's deltas: each to the n choices in turn, text in
// pieces of about three tokens, perToken apart.
type chunker struct {
	ctx      context.Context
	stream   *sseStream
	n        int
	perToken time.Duration
	// ev is the chunk, and its one choice, reused from one event to the
	// next: each is encoded before the next is built.
	ev *completion
}

// chunk sends d (and finish) to each of the n choices.
func (c *chunker) chunk(d *delta, finish *string) bool {
	for i := range c.n {
		c.ev.Choices[0] = choice{Index: i, Delta: d, FinishReason: finish}
		if !c.stream.send(c.ev) {
			return false
		}
	}
	return true
}

// pieces sends text in pieces of about three tokens, each after the time
// the profile takes to write it, each as the delta each makes of it.
func (c *chunker) pieces(text string, each func(piece string) *delta) bool {
	const chunkTokens = 3
	for rest := text; rest != ""; {
		n := pieceLen(rest, chunkTokens*4)
		piece := rest[:n]
		rest = rest[n:]
		if !sleep(c.ctx, c.perToken*time.Duration(math.Ceil(float64(n)/4))) {
			return false
		}
		if !c.chunk(each(piece), nil) {
			return false
		}
	}
	return true
}

// streamAnswer streams out as OpenAI streams it (see write).
func streamAnswer(ctx context.Context, w http.ResponseWriter, req *ChatRequest, out outgoing, now int64, perToken time.Duration) {
	stream := openStream(ctx, w)
	// With include_usage, every chunk carries "usage": null and one last
	// chunk with no choices carries the usage; without it, no chunk has a
	// usage field, as with OpenAI.
	var nullUsage any
	if req.IncludeUsage {
		nullUsage = json.RawMessage("null")
	}
	c := &chunker{ctx: ctx, stream: stream, n: req.N, perToken: perToken,
		ev: &completion{ID: out.id, Object: "chat.completion.chunk", Created: now, Model: req.Model, SystemFingerprint: "fp_drill",
			Choices: make([]choice, 1), Usage: nullUsage}}
	if !streamContent(c, out) || !c.chunk(&delta{}, &out.finish) {
		return
	}
	if req.IncludeUsage {
		if !stream.send(completion{ID: out.id, Object: "chat.completion.chunk", Created: now, Model: req.Model, SystemFingerprint: "fp_drill",
			Choices: []choice{}, Usage: &out.usage}) {
			return
		}
	}
	stream.done()
}

// streamContent streams the answer's text, or each tool call: a delta
// with its id and name, then its arguments in pieces.
func streamContent(c *chunker, out outgoing) bool {
	if len(out.calls) == 0 {
		if !c.chunk(&delta{Role: "assistant", Content: strp("")}, nil) {
			return false
		}
		// One delta for every piece, as the chunk (see chunker.ev).
		var text string
		d := &delta{Content: &text}
		if !c.pieces(out.content, func(piece string) *delta { text = piece; return d }) {
			return false
		}
	}
	for i, call := range out.calls {
		d := &delta{ToolCalls: []toolCallJSON{{Index: &i, ID: call.ID, Type: "function", Function: functionJSON{Name: call.Name}}}}
		if i == 0 {
			d.Role = "assistant"
		}
		if !c.chunk(d, nil) {
			return false
		}
		args := &delta{ToolCalls: []toolCallJSON{{Index: &i}}}
		if !c.pieces(call.Arguments, func(piece string) *delta {
			args.ToolCalls[0].Function.Arguments = piece
			return args
		}) {
			return false
		}
	}
	return true
}

// pieceLen returns how many bytes of s the next stream chunk carries: about
// n, never splitting a UTF-8 character.
func pieceLen(s string, n int) int {
	if len(s) <= n {
		return len(s)
	}
	for n < len(s) && !utf8.RuneStart(s[n]) {
		n++
	}
	return n
}

type completion struct {
	ID                string   `json:"id"`
	Object            string   `json:"object"`
	Created           int64    `json:"created"`
	Model             string   `json:"model"`
	Choices           []choice `json:"choices"`
	Usage             any      `json:"usage,omitempty"` // *Usage, JSON null, or nil (no field)
	SystemFingerprint string   `json:"system_fingerprint"`
}

type choice struct {
	Index        int       `json:"index"`
	Message      *message  `json:"message,omitempty"`
	Delta        *delta    `json:"delta,omitempty"`
	Logprobs     *struct{} `json:"logprobs"`
	FinishReason any       `json:"finish_reason"`
}

// message is an answer's message: content, or tool calls (content null).
type message struct {
	Role      string         `json:"role"`
	Content   *string        `json:"content"`
	Refusal   *string        `json:"refusal"`
	ToolCalls []toolCallJSON `json:"tool_calls,omitempty"`
}

// delta is a stream chunk's part of a message.
type delta struct {
	Role      string         `json:"role,omitempty"`
	Content   *string        `json:"content,omitempty"`
	ToolCalls []toolCallJSON `json:"tool_calls,omitempty"`
}

// toolCallJSON is a tool call as OpenAI writes it; Index is set only in
// stream deltas, ID and Type only in a call's first delta.
type toolCallJSON struct {
	Index    *int         `json:"index,omitempty"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function functionJSON `json:"function"`
}

type functionJSON struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// render writes the answer as the response format asks: for json_schema, an
// object with the schema's properties (the four triage fields filled in,
// any other property given its type's zero value); otherwise the four-field
// JSON object, which is also what the triage prompt asks for in plain text.
func render(a answer.Answer, f ResponseFormat) string {
	if f.Type == "json_schema" && f.Schema != nil {
		if props, ok := f.Schema["properties"].(map[string]any); ok && len(props) > 0 {
			return renderSchema(f.Schema, func(k string) (string, bool) {
				if isAnswerField(k) {
					return a.Field(k), true
				}
				return "", false
			})
		}
	}
	b, _ := json.Marshal(a)
	return string(b)
}

// renderSchema writes an object with the schema's properties: value(k)
// where it has one, any other property its type's zero value. It writes
// what json.Marshal writes for the map of them (keys sorted, strings
// escaped alike) without building the map: it runs for every answer.
func renderSchema(schema map[string]any, value func(k string) (string, bool)) string {
	props, _ := schema["properties"].(map[string]any)
	b := make([]byte, 0, 160)
	b = append(b, '{')
	for i, k := range slices.Sorted(maps.Keys(props)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		if s, ok := value(k); ok {
			b = appendJSONString(b, s)
			continue
		}
		t, _ := props[k].(map[string]any)
		z, err := json.Marshal(zeroOf(t))
		if err != nil {
			return "" // as json.Marshal of the whole map would fail
		}
		b = append(b, z...)
	}
	return string(append(b, '}'))
}

// appendAnswer appends a whole answer with out's content (no tool calls)
// in each of n choices, as json.Marshal encodes the completion write builds
// for it, without reflection.
func appendAnswer(dst []byte, out outgoing, model string, n int, created int64) []byte {
	dst = append(dst, `{"id":`...)
	dst = appendJSONString(dst, out.id)
	dst = append(dst, `,"object":"chat.completion","created":`...)
	dst = strconv.AppendInt(dst, created, 10)
	dst = append(dst, `,"model":`...)
	dst = appendJSONString(dst, model)
	dst = append(dst, `,"choices":[`...)
	for i := range n {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"index":`...)
		dst = strconv.AppendInt(dst, int64(i), 10)
		dst = append(dst, `,"message":{"role":"assistant","content":`...)
		dst = appendJSONString(dst, out.content)
		dst = append(dst, `,"refusal":null},"logprobs":null,"finish_reason":`...)
		dst = appendJSONString(dst, out.finish)
		dst = append(dst, '}')
	}
	dst = append(dst, `],"usage":{"prompt_tokens":`...)
	dst = strconv.AppendInt(dst, int64(out.usage.PromptTokens), 10)
	dst = append(dst, `,"completion_tokens":`...)
	dst = strconv.AppendInt(dst, int64(out.usage.CompletionTokens), 10)
	dst = append(dst, `,"total_tokens":`...)
	dst = strconv.AppendInt(dst, int64(out.usage.TotalTokens), 10)
	return append(dst, `},"system_fingerprint":"fp_drill"}`...)
}

// appendJSONString appends s as a JSON string, escaped as json.Marshal
// escapes it: quotes, backslashes and control characters, <, > and & (for
// HTML), U+2028 and U+2029, and invalid UTF-8 as U+FFFD.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func isAnswerField(k string) bool {
	for _, f := range answer.Fields {
		if f == k {
			return true
		}
	}
	return false
}

func zeroOf(schema map[string]any) any {
	t := schema["type"]
	if ts, ok := t.([]any); ok && len(ts) > 0 {
		t = ts[0]
	}
	switch t {
	case "string":
		if e, ok := schema["enum"].([]any); ok && len(e) > 0 {
			return e[0]
		}
		return ""
	case "number", "integer":
		return 0
	case "boolean":
		return false
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	}
	return nil
}

// sseStream is a server-sent event stream of chat completion chunks.
type sseStream struct {
	ctx     context.Context
	w       http.ResponseWriter
	flusher http.Flusher
	// buf holds one event while it is written, reused for the next: enc
	// encodes into it what json.Marshal gives, and a newline.
	buf bytes.Buffer
	enc *json.Encoder
}

// openStream starts a server-sent event stream on w.
func openStream(ctx context.Context, w http.ResponseWriter) *sseStream {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	s := &sseStream{ctx: ctx, w: w, flusher: flusher}
	s.enc = json.NewEncoder(&s.buf)
	return s
}

// send writes one chunk as a data line ("data: ", the chunk's JSON as
// json.Marshal writes it, a blank line) in one write and flushes it. It
// reports false once a write fails or the caller has gone.
func (s *sseStream) send(chunk any) bool {
	s.buf.Reset()
	s.buf.WriteString("data: ")
	if s.enc.Encode(chunk) != nil {
		s.buf.WriteByte('\n') // no JSON, as json.Marshal's error would leave it
	}
	s.buf.WriteByte('\n') // after the newline Encode ends with
	if _, err := s.w.Write(s.buf.Bytes()); err != nil {
		return false
	}
	s.flush()
	return s.ctx.Err() == nil
}

// done ends the stream as OpenAI does, with data: [DONE].
func (s *sseStream) done() {
	io.WriteString(s.w, "data: [DONE]\n\n")
	s.flush()
}

func (s *sseStream) flush() {
	if s.flusher != nil {
		s.flusher.Flush()
	}
}
