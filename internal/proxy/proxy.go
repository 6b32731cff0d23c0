// Package proxy is drill's fault-injecting reverse proxy for any
// OpenAI-compatible client: requests pass to an upstream (a real API or the
// built-in fake model) through the same injector drill run uses, so a team's
// own application meets busy tones, hangs and the rest at the HTTP level,
// whatever language it is written in.
//
// Every request is one attempt in a run's event log (attempt_start, fault,
// attempt_end, with a ProxyCall describing it), so a proxy's journal is read
// by replay and report and folded by scoring like any drill's. Streams, and
// any body of unknown length (a trickle, a stall), are passed through chunk
// by chunk (httputil.ReverseProxy flushes those at once); a body of known
// length goes out with its headers in one write. Request headers, the Authorization header included, pass through
// untouched and are never recorded.
package proxy

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/price"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/internal/sdkprofile"
)

// Rung is the rung name every proxied request is recorded under: the
// upstream is the one model endpoint the proxy stands in front of.
const Rung = "upstream"

// Policy is the policy name a proxy's run records, so reports tell a proxy's
// journal from a drill's.
const Policy = "proxy"

// DefaultMaxBody is the largest request body the proxy accepts by default.
const DefaultMaxBody = 32 << 20

// MaxModelName is the longest model name the proxy records, prints and
// tallies; a longer one (the body limit allows megabytes) is cut and
// marked. The upstream still receives the request as sent.
const MaxModelName = 1 << 10

// MaxIdleUpstream is how many idle connections to the upstream the proxy
// keeps open for the next requests (with its default transport).
const MaxIdleUpstream = 512

// presizeMax is the most readBody sets aside for a body before it arrives.
const presizeMax = 64 << 10

// BodyReadTimeout is how long a client has to send its request body.
const BodyReadTimeout = 30 * time.Second

// Options configure a Proxy.
type Options struct {
	// Upstream is the API's base URL, as a client would give it to its SDK
	// (e.g. https://api.openai.com/v1). Required.
	Upstream *url.URL
	// UpstreamName is how the upstream is described in the run's record
	// (default: Name(Upstream), without user information or credentials).
	UpstreamName string
	// Transport reaches the upstream (default: a clone of
	// http.DefaultTransport, closed with the proxy).
	Transport http.RoundTripper
	// Windows is the outage timeline, offsets counted from Start.
	Windows []event.Window
	// Start is when the proxy's run starts (default: now).
	Start time.Time
	// MaxBody is the largest request body accepted (default DefaultMaxBody);
	// larger ones get 413.
	MaxBody int64
	// Prices, if set, price every answer's tokens (ProxyCall.Cost).
	Prices price.Table
	// Models, if not empty, limits the outage to requests naming one of
	// these models; other requests go straight to the upstream.
	Models []string
	// ModelMap renames the model of a request before it goes upstream
	// (--model-map FROM=TO), so an application drills unchanged against an
	// upstream whose models are named otherwise. Requests are recorded
	// under the name the client sent.
	ModelMap map[string]string
	// KnownModels and DefaultModel: when both are set, a request naming a
	// model that is neither in KnownModels nor in ModelMap goes upstream as
	// DefaultModel (the built-in fake model answers for its two models
	// only: every other name becomes its mini).
	KnownModels  []string
	DefaultModel string
}

// Proxy is the fault-injecting reverse proxy: an http.Handler. Create it
// with New and end it with Close after its server has shut down.
type Proxy struct {
	upstream  *url.URL
	log       *event.Log
	injector  *inject.Injector
	rp        *httputil.ReverseProxy
	maxBody   int64
	models    map[string]bool // the outage's models; nil: every request
	prices    price.Table
	modelMap  map[string]string
	known     map[string]bool // the upstream's models; nil: any name goes
	fallback  string          // where a model not known goes
	idPrefix  string          // starts every x-request-id the proxy makes
	closeIdle func()

	ctx    context.Context // ends on Close: cancels everything in flight
	cancel context.CancelFunc
	sched  sync.WaitGroup
	ids    atomic.Int64
	closed sync.Once

	mu       sync.Mutex // guards closing, Add on inflight and outages
	closing  bool
	inflight sync.WaitGroup
	windows  []event.Window // the scheduled timeline
	outages  outages        // which are open, by hand and by command (apply.go)
}

type callKey struct{}

// callOf returns the call a request's context carries.
func callOf(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	return c
}

// New validates opts and returns a proxy whose run has started: its log
// holds the run_start event and its outage windows are scheduled.
func New(opts Options) (*Proxy, error) {
	if opts.Upstream == nil || (opts.Upstream.Scheme != "http" && opts.Upstream.Scheme != "https") || opts.Upstream.Host == "" {
		return nil, errors.New("proxy: the upstream must be an http(s) URL with a host")
	}
	if opts.Start.IsZero() {
		opts.Start = time.Now()
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	p := &Proxy{upstream: opts.Upstream, log: event.NewLog(opts.Start), maxBody: opts.MaxBody, prices: opts.Prices,
		modelMap: opts.ModelMap, idPrefix: requestIDPrefix()}
	if opts.DefaultModel != "" && len(opts.KnownModels) > 0 {
		p.fallback, p.known = opts.DefaultModel, map[string]bool{}
		for _, m := range opts.KnownModels {
			p.known[m] = true
		}
	}
	next := opts.Transport
	if next == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		// Keep the connections a burst opened for the next one (the
		// default keeps 2 a host and dials, then closes, the rest).
		t.MaxIdleConns, t.MaxIdleConnsPerHost = MaxIdleUpstream, MaxIdleUpstream
		// A request's headers and a body of tens of kilobytes (a prompt)
		// leave in one write; the default 4 KiB buffer sends them in two.
		// Reading keeps the default: an answer is copied on as it comes.
		t.WriteBufferSize = upstreamBuffer
		p.closeIdle = t.CloseIdleConnections
		next = t
	}
	p.injector = inject.New(next, opts.Start, inject.Options{Target: Rung, OnFault: func(req *http.Request, a inject.Applied) {
		e := event.Event{Kind: event.Fault, Rung: Rung, Fault: a.Kind, FaultParams: a.Params}
		if c := callOf(req.Context()); c != nil {
			e.Model, e.Attempt, e.Proxy = c.logged, c.retry, c.proxyCall()
		}
		p.log.Append(e)
	}})
	for _, m := range opts.Models {
		if p.models == nil {
			p.models = map[string]bool{}
		}
		p.models[m] = true
	}
	for _, w := range opts.Windows {
		if err := p.injector.Add(w); err != nil {
			return nil, fmt.Errorf("proxy: scheduling the outage: %w", err)
		}
	}
	p.rp = &httputil.ReverseProxy{
		Rewrite:   p.rewrite,
		Transport: &observer{p: p, faulty: p.injector, direct: next},
		// Zero: the reverse proxy still flushes every chunk of an event
		// stream or a body without a length at once (its flushInterval);
		// a body of known length, which no client reads before its end,
		// goes out with its headers in one write, not in two or three.
		FlushInterval: 0,
		BufferPool:    copyBuffers,
		ErrorHandler:  p.errorHandler,
		ErrorLog:      log.New(io.Discard, "", 0), // every failure is an event
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())

	name := opts.UpstreamName
	if name == "" {
		name = Name(opts.Upstream)
	}
	info := runInfo(opts.Windows, name)
	info.Stamp(p.log.Start())
	p.log.Append(event.Event{Kind: event.RunStart, Run: &info})
	p.windows = opts.Windows
	for i, w := range opts.Windows {
		p.sched.Go(func() { p.schedule(i, w) })
	}
	return p, nil
}

// runInfo describes a proxy's run for the fold: one rung, the upstream, and
// its outage timeline. A single window is recorded as the run's scheduled
// outage; several are known from their outage events alone.
func runInfo(ws []event.Window, upstream string) event.RunInfo {
	info := event.RunInfo{Outage: "none", Policy: Policy, Target: Rung, TimeLimitScope: "client",
		Rungs: []event.Rung{{Name: Rung, Model: upstream}}}
	kinds := map[string]bool{}
	for _, w := range ws {
		kinds[w.Kind] = true
	}
	switch {
	case len(ws) == 1:
		info.Outage = ws[0].Kind
		if ws[0].To > ws[0].From {
			info.OutageFromS, info.OutageToS = ws[0].From.Seconds(), ws[0].To.Seconds()
		}
	case len(kinds) == 1:
		info.Outage = ws[0].Kind
	case len(kinds) > 1:
		info.Outage = "mixed"
	}
	return info
}

// schedule logs the i-th window's start and end as they come, until
// Close. A window ended early (by hand or by command) has had its end
// logged then.
func (p *Proxy) schedule(i int, w event.Window) {
	if !p.sleepUntil(w.From) {
		return
	}
	p.mu.Lock()
	p.outages.opened(i)
	p.log.Append(event.Event{Kind: event.OutageStart, Rung: Rung, Fault: w.Kind})
	p.mu.Unlock()
	if w.To < 0 || !p.sleepUntil(w.To) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.outages.open[i] {
		delete(p.outages.open, i)
		p.log.Append(event.Event{Kind: event.OutageEnd, Rung: Rung, Fault: w.Kind})
	}
}

func (p *Proxy) sleepUntil(at time.Duration) bool {
	t := time.NewTimer(time.Until(p.log.Start().Add(at)))
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-p.ctx.Done():
		return false
	}
}

// Log is the proxy's run log: every request as an attempt.
func (p *Proxy) Log() *event.Log { return p.log }

// Injector is the injector in front of the upstream, for outages started and
// ended by hand.
func (p *Proxy) Injector() *inject.Injector { return p.injector }

// Context ends when the proxy closes; a server's BaseContext, so that Close
// ends every request still in flight (a hang included).
func (p *Proxy) Context() context.Context { return p.ctx }

// Close ends every request still in flight and the outage schedule, logs the
// run's end with detail and closes the log. Call it after the server has
// stopped accepting requests. Calling it again does nothing.
func (p *Proxy) Close(detail string) {
	p.closed.Do(func() {
		p.mu.Lock()
		p.closing = true
		p.mu.Unlock()
		p.cancel()
		p.inflight.Wait() // each logs its attempt's end first
		p.sched.Wait()
		if p.closeIdle != nil {
			p.closeIdle()
		}
		p.log.Append(event.Event{Kind: event.RunEnd, Detail: detail})
		p.log.Close()
	})
}

// call is one request through the proxy, from arrival to the end of its
// response.
type call struct {
	id      int
	arrived time.Time
	method  string
	path    string
	model   string // as the client sent it (clipped): matched, mapped and priced
	logged  string // model as recorded, printed and tallied (see recordedModel)
	stream  bool
	chat    bool // a chat completion: its body is read for tokens
	retry   int
	client  sdkprofile.Client // the client library, as its headers name it

	mu   sync.Mutex
	gone bool // writing to the client failed
}

func (c *call) setClientGone() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gone = true
}

func (c *call) clientGone() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gone
}

// recordedModel is a client's model name as the run's events hold it: valid
// UTF-8, with keys redacted (redact.String), exactly as the journal will
// write it. The live fold (the summary, its sorted list of unpriced models,
// the per-model tally) then sees the names a replay of the journal sees: a
// name changed only on the way to disk (two `sk-` names both becoming
// [redacted], a byte JSON cannot hold) made the recorded summary differ
// from the one its events fold into.
func recordedModel(model string) string {
	return redact.String(strings.ToValidUTF8(model, "\uFFFD"))
}

func (c *call) proxyCall() *event.ProxyCall {
	return &event.ProxyCall{ID: c.id, Method: c.method, Path: c.path, Stream: c.stream,
		SDK: c.client.Package, SDKVersion: c.client.Version, SDKTimeout: c.client.Timeout}
}

// ServeHTTP implements http.Handler: it reads the request (its body up to
// the limit), logs the attempt's start and passes it on through the
// injector. The attempt's end is logged when its response has been passed
// on in full, or failed.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := int(p.ids.Add(1))
	if !p.enter() {
		w.Header().Set(requestIDHeader, p.requestID(id))
		writeError(w, http.StatusServiceUnavailable, "server_error", "drill_proxy_closing", "drill proxy is shutting down")
		return
	}
	defer p.inflight.Done()
	c := &call{id: id, arrived: time.Now(), method: r.Method, path: r.URL.Path}
	c.retry, _ = strconv.Atoi(r.Header.Get("X-Stainless-Retry-Count"))
	c.client = sdkprofile.Identify(r.Header)
	c.chat = strings.HasSuffix(strings.TrimSuffix(r.URL.Path, "/"), "/chat/completions")
	if r.Body != nil && r.Body != http.NoBody {
		body, err := readBody(p.ctx, w, r, p.maxBody)
		if err != nil {
			p.reject(w, c, err)
			return
		}
		c.model, c.stream = peek(body)
		c.model = edge.Clip(c.model, MaxModelName) // recorded, printed and tallied: a 20 MB name must not be
		c.logged = recordedModel(c.model)
		if to := p.mapModel(c.model); to != c.model {
			if mapped, err := setModel(body, to); err == nil {
				body = mapped
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	c.stream = c.stream && c.chat
	p.log.Append(event.Event{Kind: event.AttemptStart, Rung: Rung, Model: c.logged, Attempt: c.retry, Proxy: c.proxyCall()})
	p.rp.ServeHTTP(clientWriter{ResponseWriter: w, c: c}, r.WithContext(context.WithValue(r.Context(), callKey{}, c)))
}

// enter counts a request in flight, unless the proxy is closing.
func (p *Proxy) enter() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closing {
		return false
	}
	p.inflight.Add(1)
	return true
}

// bodyError is a request body the proxy could not take: the client hears
// status.
type bodyError struct {
	status int
	err    error
}

func (b *bodyError) Error() string { return b.err.Error() }

// readBody reads a request's whole body, within the size limit and
// BodyReadTimeout, then lifts the read deadline so that a long answer is not
// cut by it.
func readBody(closing context.Context, w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(BodyReadTimeout)) // not every writer supports deadlines
	// Closing the proxy ends a read a client has stalled at once: the
	// proxy waits for its requests, and a socket read sees no context.
	stop := context.AfterFunc(closing, func() { _ = rc.SetReadDeadline(time.Now()) })
	defer func() {
		stop()
		_ = rc.SetReadDeadline(time.Time{})
	}()
	// One allocation for a body whose length is declared, up to
	// presizeMax (io.ReadAll grows its buffer step by step, to about twice
	// the body). Past it the buffer grows as the bytes come: a declared
	// length is not a reason to hold memory for a client that sends slowly.
	var buf bytes.Buffer
	if r.ContentLength > 0 && r.ContentLength <= limit {
		buf.Grow(int(min(r.ContentLength, presizeMax)) + bytes.MinRead)
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, limit))
	body := buf.Bytes()
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, &bodyError{http.StatusRequestEntityTooLarge, fmt.Errorf("request body larger than the proxy's limit of %d bytes", limit)}
	case err != nil:
		return nil, &bodyError{http.StatusBadRequest, fmt.Errorf("reading the request body: %w", err)}
	}
	return body, nil
}

// reject answers a request the proxy could not read and logs it as an
// attempt that never reached the upstream.
func (p *Proxy) reject(w http.ResponseWriter, c *call, err error) {
	status := http.StatusBadRequest
	var be *bodyError
	if errors.As(err, &be) {
		status = be.status
	}
	p.log.Append(event.Event{Kind: event.AttemptStart, Rung: Rung, Attempt: c.retry, Proxy: c.proxyCall()})
	w.Header().Set(requestIDHeader, p.requestID(c.id))
	writeError(w, status, "invalid_request_error", "drill_proxy_rejected", err.Error())
	end := event.Event{Kind: event.AttemptEnd, Rung: Rung, Attempt: c.retry, Outcome: event.HTTP4xx, Status: status,
		Detail: err.Error(), Proxy: c.proxyCall()}
	end.Proxy.Wait = time.Since(c.arrived)
	p.log.Append(end)
}

// rewrite points an outgoing request at the upstream. A path under /v1 is
// taken relative to the client's base URL (http://LISTEN/v1) and goes under
// the upstream's base path; any other path goes unchanged to the upstream's
// host. An upstream without a path receives every path unchanged.
// upstreamBuffer is the size of the proxy's write buffer on each upstream
// connection: a prompt of tens of kilobytes, not more, since each of up to
// MaxIdleUpstream kept connections holds one.
const upstreamBuffer = 32 << 10

func (p *Proxy) rewrite(pr *httputil.ProxyRequest) {
	out := pr.Out.URL
	out.Scheme, out.Host, out.User = p.upstream.Scheme, p.upstream.Host, p.upstream.User
	base := strings.TrimSuffix(p.upstream.Path, "/")
	if rest, ok := strings.CutPrefix(pr.In.URL.Path, "/v1"); ok && base != "" && (rest == "" || rest[0] == '/') {
		out.Path, out.RawPath = base+rest, ""
	}
	if p.upstream.RawQuery != "" {
		if out.RawQuery == "" {
			out.RawQuery = p.upstream.RawQuery
		} else {
			out.RawQuery = p.upstream.RawQuery + "&" + out.RawQuery
		}
	}
	pr.Out.Host = ""
	// Ask for an identity body: Go's transport then negotiates compression
	// itself and hands over plain bytes, which the proxy reads for tokens.
	pr.Out.Header.Del("Accept-Encoding")
}

// errorAnswer is the status a client hears for a request the upstream
// could not answer (errorHandler sends it; the attempt's end records it):
// 503 drill_proxy_closing when the proxy is closing (a hang it ends), none
// (0) when the client has already gone or the upstream's connection was
// reset (a reset outage is a reset for the client too), otherwise 502.
func (p *Proxy) errorAnswer(reqCtx context.Context, err error) int {
	switch {
	case p.ctx.Err() != nil:
		return http.StatusServiceUnavailable
	case reqCtx.Err() != nil, errors.Is(err, syscall.ECONNRESET):
		return 0
	}
	return http.StatusBadGateway
}

// errorHandler answers a request the upstream could not, as errorAnswer
// says: a 503 drill_proxy_closing, the connection dropped, nothing, or a
// 502 in OpenAI's error shape.
func (p *Proxy) errorHandler(w http.ResponseWriter, r *http.Request, err error) {
	if c := callOf(r.Context()); c != nil {
		w.Header().Set(requestIDHeader, p.requestID(c.id))
	}
	switch p.errorAnswer(r.Context(), err) {
	case http.StatusServiceUnavailable:
		writeError(w, http.StatusServiceUnavailable, "server_error", "drill_proxy_closing", "drill proxy is shutting down")
		// Sent now: the server closes the connections once every handler
		// has returned, before it would flush a buffered answer.
		_ = http.NewResponseController(w).Flush()
	case http.StatusBadGateway:
		writeError(w, http.StatusBadGateway, "server_error", "drill_proxy_upstream",
			"drill proxy: the upstream did not answer: "+redact.String(err.Error()))
	default:
		if r.Context().Err() == nil {
			dropConnection(w) // a reset upstream; a client already gone hears nothing
		}
	}
}

// dropConnection resets the client's connection without an answer: it
// takes the connection over and closes it at once (with SO_LINGER 0, so
// the client reads a reset, not an orderly end). A writer that cannot be
// taken over (HTTP/2) aborts the handler, which ends the stream.
func dropConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// requestIDHeader is the header OpenAI's API and its SDKs use to name a
// request: every answer through the proxy carries one.
const requestIDHeader = "X-Request-Id"

// requestIDPrefix starts a proxy's request ids with a random part, so ids
// of two proxy runs do not collide.
func requestIDPrefix() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "req_drill_" + hex.EncodeToString(b[:]) + "_"
}

// requestID is the x-request-id of the proxy's id-th request.
func (p *Proxy) requestID(id int) string { return p.idPrefix + strconv.Itoa(id) }

// mapModel is the model a request for model goes upstream as: its
// --model-map target, else the default model when the upstream does not
// know it, else itself.
func (p *Proxy) mapModel(model string) string {
	if to, ok := p.modelMap[model]; ok {
		return to
	}
	if p.known != nil && model != "" && !p.known[model] {
		return p.fallback
	}
	return model
}

// setModel rewrites a JSON request body's "model" field.
func setModel(body []byte, model string) ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return nil, fmt.Errorf("proxy: reading the request to rename its model: %w", err)
	}
	name, err := json.Marshal(model)
	if err != nil {
		return nil, fmt.Errorf("proxy: renaming the model: %w", err)
	}
	fields["model"] = name
	return json.Marshal(fields)
}

// writeError writes an error in OpenAI's shape.
func writeError(w http.ResponseWriter, status int, typ, code, msg string) {
	var e struct {
		Error struct {
			Message string  `json:"message"`
			Type    string  `json:"type"`
			Param   *string `json:"param"`
			Code    string  `json:"code"`
		} `json:"error"`
	}
	e.Error.Message, e.Error.Type, e.Error.Code = msg, typ, code
	b, _ := json.Marshal(e)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
