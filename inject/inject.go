// Package inject applies outages to HTTP attempts, below the SDK: an
// http.RoundTripper that looks up the outage window each attempt starts in
// and hands the attempt to that window's fault. The SDK's retries, the chain
// and the breaker then see real errors.
//
// Each fault kind is one small file: a struct whose JSON/YAML-tagged fields
// are its parameters, with safe defaults, behind the one-method Fault
// interface and registered by name (toxiproxy's toxics). Every window gets a
// fresh instance. Window modifiers (rate, ramp, flap, models) decide which
// attempts a window hits; see event.Window, the one window type.
package inject

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/drill-dev/drill/event"
)

// Fault applies one kind of failure to one HTTP attempt.
type Fault interface {
	Apply(a Attempt) (*http.Response, error)
}

// Attempt is one HTTP attempt a fault applies to.
type Attempt struct {
	// Req is the attempt's request. Its body can be read again: the
	// injector buffers it.
	Req *http.Request
	// Next is the transport to the model, for faults that let the request
	// through.
	Next http.RoundTripper
	// Rand is seeded by the run's seed and the attempt (its body and retry
	// count), so a fault's random choices (slow's jitter) are reproducible.
	Rand *rand.Rand
}

// registry maps a fault kind to the constructor of a fresh instance with
// its defaults.
var registry = map[string]func() Fault{}

// chatKinds are the kinds registered by registerChat: the chat workload's
// own faults, on tool-calling answers.
var chatKinds = map[string]bool{}

// register adds a fault kind; called from each fault's file. newFault must
// return a pointer to a struct whose tagged fields are the parameters.
func register(kind string, newFault func() Fault) { registry[kind] = newFault }

// registerChat adds a fault kind of the chat workload (see ChatKinds).
func registerChat(kind string, newFault func() Fault) {
	register(kind, newFault)
	chatKinds[kind] = true
}

// Kinds lists the fault kinds of the triage workload, sorted: every
// registered kind but the chat workload's own (ChatKinds), which break
// tool-calling answers that triage never gets.
func Kinds() []string { return kinds(func(k string) bool { return !chatKinds[k] }) }

// ChatKinds lists the chat workload's own fault kinds, sorted: overloaded,
// malformed-tool-call and loop. A chat drill takes these and every kind of
// Kinds too (a carrier hang, a slow model).
func ChatKinds() []string { return kinds(func(k string) bool { return chatKinds[k] }) }

func kinds(keep func(kind string) bool) []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		if keep(n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// Lookup returns a fresh fault of kind with its default parameters, or an
// error listing the valid kinds.
func Lookup(kind string) (Fault, error) {
	newFault, ok := registry[kind]
	if !ok {
		return nil, fmt.Errorf("unknown outage kind %q (valid: %s; for the chat workload also %s)", kind, strings.Join(Kinds(), ", "), strings.Join(ChatKinds(), ", "))
	}
	return newFault(), nil
}

// requestFilter is implemented by faults that can break only some
// requests (the chat workload's, only tool-calling ones): a hit on any other
// request passes through and is not logged as applied.
type requestFilter interface {
	appliesTo(body []byte) bool
}

// CanBreak reports whether fault f can break the call whose request body
// is body: false for a chat fault on a call it cannot change (loop with no
// earlier tool call to repeat; malformed-tool-call when the request offers
// no tools or sets tool_choice "none"), true otherwise. The injector lets
// such a call through without applying or logging the fault; a caller that
// applies faults itself should do the same.
func CanBreak(f Fault, body []byte) bool {
	rf, ok := f.(requestFilter)
	return !ok || rf.appliesTo(body)
}

// Applied describes a fault applied to one attempt, for the run's log.
type Applied struct {
	Kind   string // the fault kind
	Rung   string // the rung whose attempt it hit
	Window int    // the window's index, in the order added
	// Params are the fault's parameters (defaults included) and the
	// window's modifiers that differ from their defaults, key → value as
	// written on the command line.
	Params map[string]string
}

// Options configure an injector. The zero value is usable: no seed, every
// window without Models aimed at "primary", nothing logged.
type Options struct {
	// Seed seeds each window's hit draws and the faults' random choices.
	Seed int64
	// Target is the rung a window without Models breaks; "" means primary.
	Target string
	// OnFault, if not nil, is called for every fault applied, before it
	// takes effect.
	OnFault func(req *http.Request, a Applied)
	// Replica is the fleet replica (from 1) this injector serves; windows
	// that name Replicas apply only to theirs. 0: not part of a fleet.
	Replica int
}

// window is a scheduled event.Window with its fault instance.
type window struct {
	event.Window
	fault Fault
	log   map[string]string // LogParams, computed once
}

// Injector is the fault-injecting transport. It is safe for concurrent
// use; windows can be added and ended while requests run. Injector itself
// is the RoundTripper of the target rung; For gives one per rung.
type Injector struct {
	next  http.RoundTripper
	start time.Time
	opts  Options

	mu      sync.Mutex
	windows []window
}

var _ http.RoundTripper = (*Injector)(nil)

// New returns an injector in front of next whose window offsets count from
// start.
func New(next http.RoundTripper, start time.Time, opts Options) *Injector {
	if opts.Target == "" {
		opts.Target = "primary"
	}
	return &Injector{next: next, start: start, opts: opts}
}

// Add validates a window and schedules it with a fresh fault instance.
func (i *Injector) Add(w event.Window) error {
	if err := Validate(w); err != nil {
		return err
	}
	f, err := NewFault(w.FaultSpec)
	if err != nil {
		return err
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	i.windows = append(i.windows, window{Window: w.Clone(), fault: f, log: LogParams(w)})
	return nil
}

// EndAt ends every window active at offset at, at that offset. It reports
// whether one was active.
func (i *Injector) EndAt(at time.Duration) bool {
	i.mu.Lock()
	defer i.mu.Unlock()
	ended := false
	for k, w := range i.windows {
		if w.Contains(at) {
			i.windows[k].To = at
			ended = true
		}
	}
	return ended
}

// Active returns the newest window active at offset at, whatever models it
// breaks, if any.
func (i *Injector) Active(at time.Duration) (event.Window, bool) {
	i.mu.Lock()
	defer i.mu.Unlock()
	for k := len(i.windows) - 1; k >= 0; k-- {
		if w := i.windows[k]; w.Contains(at) {
			return w.Window.Clone(), true
		}
	}
	return event.Window{}, false
}

// Windows returns every window added, in order, with their current ends.
func (i *Injector) Windows() []event.Window {
	i.mu.Lock()
	defer i.mu.Unlock()
	out := make([]event.Window, len(i.windows))
	for k, w := range i.windows {
		out[k] = w.Window.Clone()
	}
	return out
}

// decide returns the window that decides an attempt on rung starting at
// offset at: the newest one containing at that breaks rung. Overlapping
// windows do not add up; the newest decides, hit or miss.
func (i *Injector) decide(rung string, at time.Duration) (int, window, bool) {
	i.mu.Lock()
	defer i.mu.Unlock()
	for k := len(i.windows) - 1; k >= 0; k-- {
		w := i.windows[k]
		if w.Contains(at) && w.Breaks(rung, i.opts.Target, i.opts.Replica) {
			return k, w, true
		}
	}
	return 0, window{}, false
}

// For returns the transport for rung's attempts: windows that break rung
// apply to them.
func (i *Injector) For(rung string) http.RoundTripper { return rungTransport{i, rung} }

// RoundTrip applies the windows to an attempt of the target rung.
func (i *Injector) RoundTrip(req *http.Request) (*http.Response, error) {
	return i.roundTrip(i.opts.Target, req)
}

type rungTransport struct {
	i    *Injector
	rung string
}

// RoundTrip applies the windows that break the transport's rung.
func (t rungTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return t.i.roundTrip(t.rung, req)
}

func (i *Injector) roundTrip(rung string, req *http.Request) (*http.Response, error) {
	at := time.Since(i.start)
	idx, w, ok := i.decide(rung, at)
	if !ok {
		return i.next.RoundTrip(req)
	}
	req, body, err := BufferBody(req)
	if err != nil {
		return nil, fmt.Errorf("inject: reading the request body: %w", err)
	}
	rng := attemptRand(i.opts.Seed, idx, rung, body, req.Header.Get("X-Stainless-Retry-Count"))
	if rng.Float64() >= w.HitRate(at) {
		return i.next.RoundTrip(req)
	}
	if !CanBreak(w.fault, body) {
		return i.next.RoundTrip(req) // not applied, not logged
	}
	if i.opts.OnFault != nil {
		i.opts.OnFault(req, Applied{Kind: w.Kind, Rung: rung, Window: idx, Params: maps.Clone(w.log)})
	}
	return w.fault.Apply(Attempt{Req: req, Next: i.next, Rand: rng})
}

// BufferBody reads req's body and returns a request whose body can be read
// again (by the fault and by the transport after it), and the body: for a
// transport that applies faults itself.
func BufferBody(req *http.Request) (*http.Request, []byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return req, nil, nil
	}
	if req.GetBody != nil {
		// The SDK's requests can give their body again: read one copy to
		// decide with, and send another, so that nothing holds the copy
		// while a fault keeps the request waiting. The body sent is asked
		// for after the read: GetBody may rewind and return one shared
		// reader (openai-go's, for a *bytes.Reader body), which the read
		// has just drained.
		if rc, err := req.GetBody(); err == nil {
			b, err := readBody(rc, req.ContentLength)
			rc.Close()
			if err == nil {
				if again, err := req.GetBody(); err == nil {
					req.Body.Close()
					out := req.WithContext(req.Context())
					out.Body = again
					return out, b, nil
				}
			}
		}
	}
	b, err := readBody(req.Body, req.ContentLength)
	req.Body.Close()
	if err != nil {
		return nil, nil, err
	}
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(b))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	out.ContentLength = int64(len(b))
	return out, b, nil
}

// maxSized is the longest declared length readBody allocates at once.
const maxSized = 1 << 20

// readBody reads r to its end, as io.ReadAll does, in one allocation when
// n, the declared length, is right (io.ReadAll grows its buffer from 512
// bytes, about twice the body in all). The fake model reads its requests
// the same way in its own copy: it imports nothing that could reach the
// answer key.
func readBody(r io.Reader, n int64) ([]byte, error) {
	if n <= 0 || n > maxSized {
		return io.ReadAll(r)
	}
	buf := bytes.NewBuffer(make([]byte, 0, n+bytes.MinRead))
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}

// attemptRand is the attempt's random source: a hash of the seed, the
// window, the rung, the body and the retry count, so the same drill hits
// the same attempts whatever order concurrent attempts arrive in.
func attemptRand(seed int64, window int, rung string, body []byte, retry string) *rand.Rand {
	h := fnv.New64a()
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(seed))
	binary.LittleEndian.PutUint64(b[8:], uint64(window))
	h.Write(b[:])
	h.Write([]byte(rung))
	h.Write([]byte{0})
	h.Write(body)
	h.Write([]byte{0})
	h.Write([]byte(retry))
	s := h.Sum64()
	return rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))
}
