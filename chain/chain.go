// Package chain is the fallback chain: ordered rungs, each its own openai-go
// client with its own time limit, retries and optional breaker, then
// optionally the rules rung (keyword triage, no model call), ending in a
// canned reply that never fails. Chain options: a deadline per email across
// the whole chain, and hedging the primary with the backup. It reports each
// rung's start, skip and end through Hooks so the engine can log them.
package chain

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/triage"
)

// CannedReply is the last rung's answer: it does not triage, it hands the
// email to a person.
const CannedReply = "A person will get back to you shortly."

// Scope is where a rung's time limit lives.
type Scope string

// Time-limit scopes. Where the limit lives changes what the SDK does on a
// hang (DESIGN.md): on the HTTP client it is retried, as a request timeout
// it is not.
const (
	// ScopeAttempt puts the limit on the http.Client: each attempt gets it
	// and the SDK retries a timed-out attempt (the chapter's behaviour).
	ScopeAttempt Scope = "attempt"
	// ScopeRequest uses the SDK's request timeout, which the SDK does not
	// retry: a hang fails after one attempt.
	ScopeRequest Scope = "request"
)

// Scopes lists the valid scopes.
var Scopes = []Scope{ScopeAttempt, ScopeRequest}

// RungConfig configures one model rung.
type RungConfig struct {
	Name      string        // primary, backup
	Model     string        // model name sent to the endpoint
	TimeLimit time.Duration // 0: none (the SDK's default: wait forever on a hang)
	Retries   int           // the SDK's retries after the first attempt
	Scope     Scope         // where TimeLimit lives; "" means attempt
	BaseURL   string        // the endpoint, e.g. http://127.0.0.1:8089/v1
	APIKey    string
	Transport http.RoundTripper // below the SDK; nil means http.DefaultTransport
	Breaker   *breaker.Breaker  // optional
	Stream    *StreamOptions    // nil: plain calls; set: streamed calls (stream.go)
	// MaxRetryDelay caps how long the SDK waits before a retry, a server's
	// Retry-After included (openai-go's WithMaxRetryDelay); a longer
	// server delay stops retrying. 0 means the SDK's default (2 minutes).
	MaxRetryDelay time.Duration
	// Count says which outcomes beyond timeouts, connection errors and 5xx
	// the breaker counts as failures.
	Count breaker.Counting
	// Floor cuts a streamed answer under a tokens-per-second floor
	// (outcome slow_stream); the zero value is off.
	Floor StreamFloor
}

// Rung is one model in the chain.
type Rung struct {
	cfg    RungConfig
	client openai.Client
}

// NewRung builds a rung and its SDK client.
func NewRung(cfg RungConfig) *Rung {
	if cfg.Scope == "" {
		cfg.Scope = ScopeAttempt
	}
	rt := cfg.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	rt = cfg.Floor.wrap(rt)
	hc := &http.Client{Transport: rt}
	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL),
		option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(cfg.Retries),
	}
	if cfg.MaxRetryDelay > 0 {
		opts = append(opts, option.WithMaxRetryDelay(cfg.MaxRetryDelay))
	}
	if cfg.TimeLimit > 0 {
		switch cfg.Scope {
		case ScopeRequest:
			opts = append(opts, option.WithRequestTimeout(cfg.TimeLimit))
		default:
			hc.Timeout = cfg.TimeLimit
		}
	}
	opts = append(opts, option.WithHTTPClient(hc))
	return &Rung{cfg: cfg, client: openai.NewClient(opts...)}
}

// Name is the rung's name.
func (r *Rung) Name() string { return r.cfg.Name }

// Model is the model the rung calls.
func (r *Rung) Model() string { return r.cfg.Model }

// Breaker is the rung's breaker, or nil.
func (r *Rung) Breaker() *breaker.Breaker { return r.cfg.Breaker }

// call makes one call, all SDK retries included, and parses the answer.
func (r *Rung) call(ctx context.Context, e emails.Email) (emails.Answer, event.Outcome, error) {
	if r.cfg.Stream != nil {
		return r.callStream(ctx, e)
	}
	params, opts := requestBodies.request(r.cfg.Model, e)
	var rep reply
	if _, err := r.client.Chat.Completions.New(ctx, params, append(opts, option.WithResponseBodyInto(&rep))...); err != nil {
		return emails.Answer{}, Classify(ctx, err), fmt.Errorf("%s (%s): %w", r.cfg.Name, r.cfg.Model, err)
	}
	choices, content := rep.first()
	if choices == 0 {
		return emails.Answer{}, event.Invalid, fmt.Errorf("%s (%s): answer has no choices", r.cfg.Name, r.cfg.Model)
	}
	a, err := triage.Parse(content)
	if err != nil {
		return emails.Answer{}, event.Invalid, fmt.Errorf("%s (%s): %w", r.cfg.Name, r.cfg.Model, err)
	}
	return a, event.OK, nil
}

// Hooks observe a chain serving an email. Any may be nil. They run on the
// email's goroutine, or, while a hedge is in flight, on the goroutine of
// the hedged call they describe: they must be safe for concurrent use.
type Hooks struct {
	RungStart   func(ctx context.Context, r *Rung)
	RungSkipped func(ctx context.Context, r *Rung)
	RungEnd     func(ctx context.Context, r *Rung, o event.Outcome, err error)
}

// Chain is an ordered list of rungs, optionally followed by the rules rung
// and ending in the canned reply.
type Chain struct {
	Rungs  []*Rung
	Rules  bool // after the model rungs, the rules rung (keyword triage, no model call)
	Canned bool // end in CannedReply instead of an error
	Hooks  Hooks
	// EmailDeadline is one budget per email across the whole chain: when it
	// runs out the call in progress is cancelled (outcome deadline) and the
	// email gets the rules rung or the canned reply. 0 means none.
	EmailDeadline time.Duration
	// HedgeAfter, if above 0, asks the second rung too when the first has
	// not answered after it; the first valid answer wins and the other
	// call is cancelled.
	HedgeAfter time.Duration
	// Hold, if set, keeps the emails off the backup: the primary alone
	// serves them, and one it cannot answer is handed to a person or waits
	// for it (hold.go).
	Hold *Hold
}

// RungError is why one rung did not serve an email.
type RungError struct {
	Rung    string
	Outcome event.Outcome
	Err     error
}

// Result is who served an email and how.
type Result struct {
	ServedBy string         // primary, backup (a rung's name), canned or error
	Answer   *emails.Answer // nil for canned and error
	Reply    string         // CannedReply when canned
	Errors   []RungError    // every rung that failed or was skipped, in order
	// Handover is how Hold held the email; nil without a Hold or when the
	// primary answered at once.
	Handover *event.Handover
}

// Serve runs the email down the chain until a rung answers. An open breaker
// skips its rung at once, without a request. If ctx ends, the email is an
// error: the run is over and no further rung is tried. If the email's
// deadline runs out, the model rungs left are skipped.
func (c *Chain) Serve(ctx context.Context, e emails.Email) Result {
	if c.Hold != nil {
		return c.serveHeld(ctx, e, c.Hold)
	}
	var res Result
	callCtx, cancel := withDeadline(ctx, c.EmailDeadline)
	defer cancel()
	for i := 0; i < len(c.Rungs); i++ {
		r := c.Rungs[i]
		if ctx.Err() != nil {
			break
		}
		if callCtx.Err() != nil {
			res.Errors = append(res.Errors, RungError{Rung: r.cfg.Name, Outcome: event.Deadline, Err: errEmailDeadline})
			continue
		}
		if c.HedgeAfter > 0 && i == 0 && len(c.Rungs) > 1 {
			if c.serveHedged(callCtx, ctx, e, r, c.Rungs[1], &res) {
				return res
			}
			i++ // the hedge already tried the second rung, or will not
			continue
		}
		if c.try(callCtx, ctx, e, r, &res) {
			return res
		}
	}
	if ctx.Err() == nil && c.Rules {
		a := RulesTriage(e)
		res.ServedBy, res.Answer = event.ServedRules, &a
		return res
	}
	if c.Canned && ctx.Err() == nil {
		res.ServedBy, res.Reply = event.ServedCanned, CannedReply
		return res
	}
	res.ServedBy = event.ServedError
	return res
}

// try asks r for an answer: its breaker, then its call. It reports whether
// r served the email; if not, why is added to res.Errors.
func (c *Chain) try(ctx, run context.Context, e emails.Email, r *Rung, res *Result) bool {
	ticket, ok := c.allow(ctx, r, res)
	if !ok {
		return false
	}
	answer, outcome, err := c.callRung(ctx, run, e, r, ticket)
	if err != nil {
		res.Errors = append(res.Errors, RungError{Rung: r.cfg.Name, Outcome: outcome, Err: err})
		return false
	}
	res.ServedBy, res.Answer = r.cfg.Name, &answer
	return true
}

// allow asks r's breaker, if it has one, for a ticket; when the breaker is
// open it reports the skip and returns false.
func (c *Chain) allow(ctx context.Context, r *Rung, res *Result) (breaker.Ticket, bool) {
	b := r.cfg.Breaker
	if b == nil {
		return breaker.Ticket{}, true
	}
	t, err := b.Allow()
	if errors.Is(err, breaker.ErrOpen) {
		if c.Hooks.RungSkipped != nil {
			c.Hooks.RungSkipped(ctx, r)
		}
		res.Errors = append(res.Errors, RungError{Rung: r.cfg.Name, Outcome: event.BreakerOpen, Err: err})
		return breaker.Ticket{}, false
	}
	return t, true
}

// callRung makes r's call under ctx (the email's deadline, or a hedge's
// cancellation, below run), reports its outcome to r's breaker and hooks.
// A call that ctx cut while the run goes on ends as deadline (the email's
// budget ran out) or canceled (it lost a hedge).
func (c *Chain) callRung(ctx, run context.Context, e emails.Email, r *Rung, t breaker.Ticket) (emails.Answer, event.Outcome, error) {
	rctx := ctx
	if t.Probe() {
		rctx = context.WithValue(ctx, probeKey{}, true)
	}
	if c.Hooks.RungStart != nil {
		c.Hooks.RungStart(rctx, r)
	}
	answer, outcome, err := r.call(rctx, e)
	if err != nil && ctx.Err() != nil && run.Err() == nil {
		outcome = cutOutcome(ctx)
	}
	if b := r.cfg.Breaker; b != nil {
		b.Finish(t, breaker.Outcome{Result: CountResult(r.cfg.Count, outcome), RetryAfter: retryAfter(err)})
	}
	if c.Hooks.RungEnd != nil {
		c.Hooks.RungEnd(ctx, r, outcome, err)
	}
	return answer, outcome, err
}
