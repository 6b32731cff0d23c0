package chat

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/drill-dev/drill/inject"
)

// ErrReadTimeout is the error of an attempt whose response sent nothing
// for the policy's read timeout.
var ErrReadTimeout = errors.New("read timeout: no bytes from the model")

// ErrAttemptDeadline is the error of an attempt cut by the policy's
// attempt deadline.
var ErrAttemptDeadline = errors.New("attempt deadline: the attempt took too long")

// attempt is one HTTP attempt of a model call, as the transport saw it.
type attempt struct {
	rung, model string
	class       string // the profile's fault class, "" for none
	start       time.Time
	status      int
	err         error
	promptBytes int64
}

// callTrace is a model call's attempts, filled in by the transport: the
// engine reads it when the SDK returns.
type callTrace struct {
	conv, turn int
	email      int       // the conversation's email, for the log
	start      time.Time // the conversation's start: attempts are timed from it
	rung       string
	// stuck marks a call to a model that has looped in this conversation
	// (Profile.LoopPersists): an attempt drawn good repeats the call too.
	stuck bool
	// usedBefore is the attempts the model call made on earlier streams:
	// this stream's attempts are numbered on from them for their draws.
	usedBefore int

	mu       sync.Mutex
	attempts []*attempt
}

type traceKey struct{}

func withTrace(ctx context.Context, t *callTrace) context.Context {
	return context.WithValue(ctx, traceKey{}, t)
}

// last returns the call's last attempt, nil if none was made.
func (t *callTrace) last() *attempt {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.attempts) == 0 {
		return nil
	}
	return t.attempts[len(t.attempts)-1]
}

// count is the attempts made.
func (t *callTrace) count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.attempts)
}

// modelTransport is below the SDK for every model call: it draws each
// attempt's fault from the profile (seeded by the run's seed and the
// attempt's place in the run, so a run is reproducible whatever the
// goroutines' order), applies it through inject's fault, bounds the wait
// for bytes by the read timeout, and reports every attempt that ends in an
// error to the primary's breaker and the log.
type modelTransport struct {
	r    *Run
	next http.RoundTripper
}

var _ http.RoundTripper = (*modelTransport)(nil)

// RoundTrip implements http.RoundTripper.
func (t *modelTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	tr, _ := req.Context().Value(traceKey{}).(*callTrace)
	if tr == nil {
		return nil, errors.New("chat: a model request outside a conversation's call")
	}
	req, body, err := inject.BufferBody(req)
	if err != nil {
		return nil, fmt.Errorf("chat: buffering the request: %w", err)
	}
	a := &attempt{rung: tr.rung, model: t.r.model(tr.rung), start: time.Now(), promptBytes: int64(len(body))}
	tr.mu.Lock()
	n := len(tr.attempts)
	tr.attempts = append(tr.attempts, a)
	tr.mu.Unlock()

	rng := t.r.attemptRand(tr.conv, tr.turn, tr.usedBefore+n, tr.rung)
	a.class = t.r.cfg.Profile.draw(tr.rung, a.start.Sub(t.r.start), rng)
	if a.class == "" && tr.stuck {
		a.class = ClassLoop
	}

	ctx, cancel := context.WithCancelCause(req.Context())
	idle := newIdleTimer(t.r.cfg.Policy.ReadTimeout, cancel)
	if d := t.r.cfg.Policy.AttemptDeadline; d > 0 {
		idle.deadline = time.AfterFunc(d, func() { cancel(ErrAttemptDeadline) })
	}
	req = req.WithContext(ctx)
	var f inject.Fault
	if a.class != "" {
		f = t.r.faults[a.class]
		if f == nil || !inject.CanBreak(f, body) {
			// A fault that cannot change this call (a loop with no earlier
			// tool call to repeat) lets it through, and is not its fault.
			a.class, f = "", nil
		}
	}
	var resp *http.Response
	if f == nil {
		resp, err = t.next.RoundTrip(req)
	} else {
		resp, err = f.Apply(inject.Attempt{Req: req, Next: t.next, Rand: rng})
	}
	if err != nil {
		idle.stop()
		err = readTimeoutOr(ctx, err)
		cancel(nil)
		a.err = err
		t.r.attemptFailed(tr, a)
		return nil, err
	}
	a.status = resp.StatusCode
	if resp.StatusCode != http.StatusOK {
		idle.stop()
		t.r.attemptFailed(tr, a)
		// The error body is read by the SDK; the attempt's context ends with it.
		resp.Body = &idleBody{rc: resp.Body, idle: idle, ctx: ctx, cancel: cancel}
		return resp, nil
	}
	idle.reset()
	resp.Body = &idleBody{rc: resp.Body, idle: idle, ctx: ctx, cancel: cancel}
	return resp, nil
}

// attemptRand is the random source of one attempt: the run's seed and the
// attempt's conversation, turn, number and rung.
func (r *Run) attemptRand(conv, turn, n int, rung string) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d/%d/%d/%s", r.cfg.Seed, conv, turn, n, rung)
	s := h.Sum64()
	return rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))
}

// idleTimer cancels an attempt when no bytes came for the read timeout.
type idleTimer struct {
	d time.Duration
	t *time.Timer
	// deadline is the attempt deadline's timer, stopped with the idle one.
	deadline *time.Timer
	mu       sync.Mutex
	fired    bool
}

func newIdleTimer(d time.Duration, cancel context.CancelCauseFunc) *idleTimer {
	it := &idleTimer{d: d}
	if d > 0 {
		it.t = time.AfterFunc(d, func() {
			it.mu.Lock()
			it.fired = true
			it.mu.Unlock()
			cancel(ErrReadTimeout)
		})
	}
	return it
}

func (it *idleTimer) reset() {
	if it.t != nil {
		it.t.Reset(it.d)
	}
}

func (it *idleTimer) stop() {
	if it.t != nil {
		it.t.Stop()
	}
	if it.deadline != nil {
		it.deadline.Stop()
	}
}

// readTimeoutOr is ErrReadTimeout when the attempt's context was ended by
// the read timeout, err otherwise.
func readTimeoutOr(ctx context.Context, err error) error {
	if c := context.Cause(ctx); errors.Is(c, ErrReadTimeout) || errors.Is(c, ErrAttemptDeadline) {
		return timeoutError{c}
	}
	return err
}

// timeoutError is a read timeout or attempt deadline as a net.Error that
// timed out, so it classifies as a timeout.
type timeoutError struct{ err error }

func (e timeoutError) Error() string   { return e.err.Error() }
func (e timeoutError) Unwrap() error   { return e.err }
func (e timeoutError) Timeout() bool   { return true }
func (e timeoutError) Temporary() bool { return true }

// idleBody restarts the read timeout on every read that brings bytes.
type idleBody struct {
	rc     io.ReadCloser
	idle   *idleTimer
	ctx    context.Context
	cancel context.CancelCauseFunc
}

// Read reads on, restarting the read timeout when bytes came.
func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.idle.reset()
	}
	if err != nil && err != io.EOF {
		err = readTimeoutOr(b.ctx, err)
	}
	return n, err
}

// Close stops the timers and ends the attempt's context.
func (b *idleBody) Close() error {
	b.idle.stop()
	err := b.rc.Close()
	b.cancel(nil)
	return err
}
