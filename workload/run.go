// Package workload is one drill run: the arrival schedule, one goroutine
// per email through the fallback chain, the outage schedule, and the run's
// event log that every step appends to.
package workload

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
)

// fakeBaseURL is the base URL the SDK is given for an in-process model
// (Endpoint.Transport without a BaseURL); no socket is ever opened for it.
const fakeBaseURL = "http://fake-model.drill.invalid/v1"

// ErrNoModel is returned by Start for an Endpoint with neither a BaseURL
// nor a Transport: the engine has no built-in model; the caller wires one
// (cmd/drill wires the fake model's in-process transport).
var ErrNoModel = errors.New("no model to call: set Endpoint.BaseURL or Endpoint.Transport")

// Run is a drill in progress. Its methods are safe for concurrent use.
type Run struct {
	cfg      Config
	log      *event.Log
	injector *inject.Injector
	chain    *chain.Chain // the default route's (every email's, without routes)
	routes   routeTable   // each class's chain (routes.go)

	pool *workerPool // the workers the emails share (--max-in-flight); nil: no limit

	ctx    context.Context // ends when the run is over; cancels in-flight calls
	cancel context.CancelFunc
	done   chan struct{}

	mu          sync.Mutex
	stopped     bool   // Stop was called
	abortReason string // why Abort was called; "" if it was not
	paused      bool
	resumed     chan struct{} // closed on Resume
	outages     outageLog     // which outage windows the log has open (outages.go)
	breakers    breakers      // the rungs' breakers, closed when the run ends
	closeIdle   func()        // closes the run's own HTTP connections, if it has any
	pausedAt    time.Time     // when arrivals were paused
	shift       time.Duration // total time arrivals were held, which shifts the schedule

	status string
	// timed are the timers ending outages commands started with a
	// duration (apply.go): the run waits for them before it ends.
	timed sync.WaitGroup
}

type emailKey struct{}

// emailID returns the email number a request's context carries.
func emailID(ctx context.Context) int {
	id, _ := ctx.Value(emailKey{}).(int)
	return id
}

// Start validates cfg and starts the drill. It returns at once; the run
// ends when every email is done, at the ceiling, on Stop, or when ctx ends.
func Start(ctx context.Context, cfg Config) (*Run, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	start := time.Now()
	r := &Run{cfg: cfg, log: event.NewLog(start), done: make(chan struct{}), pool: newWorkerPool(cfg.MaxInFlight)}
	r.ctx, r.cancel = context.WithTimeout(ctx, cfg.Ceiling())

	base, addrs, closeIdle, err := cfg.endpoints()
	if err != nil {
		r.cancel()
		return nil, err
	}
	r.closeIdle = closeIdle
	spend := newMeter(cfg.Prices, cfg.MaxSpend, r.Abort)
	r.injector = inject.New(base, start, inject.Options{Seed: cfg.Seed, Target: cfg.Target, OnFault: r.logFault, Replica: cfg.Replica})
	for _, w := range cfg.Windows() {
		if err := r.injector.Add(w); err != nil {
			r.cancel()
			return nil, fmt.Errorf("scheduling the outage: %w", err)
		}
	}

	shared := map[string]*breaker.Breaker{} // every rung's breaker, by rung, for the routes to share
	r.chain = r.buildChain(cfg.Policy, addrs, spend, shared)
	if err := r.buildRoutes(addrs, spend, shared); err != nil {
		r.cancel()
		return nil, fmt.Errorf("building the routes: %w", err)
	}

	info := cfg.Info()
	info.Stamp(start)
	r.log.Append(event.Event{Kind: event.RunStart, Run: &info})
	if cfg.Clock != "" {
		// Before any arrival: every reader knows the clock from the start.
		r.log.Append(event.Event{Kind: event.RunClock, Detail: cfg.Clock})
	}
	go r.run(ctx)
	return r, nil
}

func (r *Run) hooks() chain.Hooks {
	return chain.Hooks{
		RungStart: func(ctx context.Context, rg *chain.Rung) {
			r.log.Append(event.Event{Kind: event.RungStart, Email: emailID(ctx), Rung: rg.Name(), Model: rg.Model(),
				Probe: chain.IsProbe(ctx), Hedged: chain.Hedged(ctx)})
		},
		RungSkipped: func(ctx context.Context, rg *chain.Rung) {
			r.log.Append(event.Event{Kind: event.RungSkipped, Email: emailID(ctx), Rung: rg.Name(), Model: rg.Model(),
				Outcome: event.BreakerOpen})
		},
		RungEnd: func(ctx context.Context, rg *chain.Rung, o event.Outcome, err error) {
			e := event.Event{Kind: event.RungEnd, Email: emailID(ctx), Rung: rg.Name(), Model: rg.Model(), Outcome: o,
				Hedged: chain.Hedged(ctx), HedgeLost: chain.HedgeLost(ctx)}
			if err != nil {
				e.Detail = err.Error()
			}
			r.log.Append(e)
		},
	}
}

// run drives arrivals and the outage schedule, then ends the run.
func (r *Run) run(parent context.Context) {
	defer close(r.done)
	var wg sync.WaitGroup
	if r.cfg.Outage != OutageNone {
		wg.Go(r.scheduleOutage)
	}
	served := newServers()
	sent := r.arrivals(served)
	served.wait()

	r.mu.Lock()
	stopped, abortReason := r.stopped, r.abortReason
	r.mu.Unlock()
	ceiling := errors.Is(r.ctx.Err(), context.DeadlineExceeded)
	r.cancel() // ends the outage schedule and anything still hung
	r.breakers.close()
	wg.Wait()
	r.mu.Lock()
	r.outages.closed = true // no command starts another timer
	r.mu.Unlock()
	r.timed.Wait()
	if r.closeIdle != nil {
		r.closeIdle()
	}

	status, detail := event.StatusCompleted, "all emails done"
	end := &event.RunEndInfo{NotSent: r.cfg.Emails - sent}
	switch {
	case abortReason != "":
		status, detail = event.StatusAborted, "aborted: "+abortReason
		if end.NotSent > 0 {
			end.NotSentReason = event.NotSentStopped
		}
	case stopped || (parent.Err() != nil && !ceiling):
		status, detail = event.StatusInterrupted, "interrupted"
		if end.NotSent > 0 {
			end.NotSentReason = event.NotSentStopped
		}
	case ceiling:
		status = event.StatusAborted
		detail = fmt.Sprintf("ceiling of %s reached: emails in flight cancelled", r.cfg.Ceiling())
		if end.NotSent > 0 {
			end.NotSentReason = event.NotSentCeiling
		}
	}
	end.Status = status
	r.log.Append(event.Event{Kind: event.RunEnd, Detail: detail, End: end})
	r.log.Close()
	r.mu.Lock()
	r.status = status
	r.mu.Unlock()
}

// arrivals sends the emails on the fixed schedule t = i / rate (shifted by
// any pause), holding while paused, and returns how many it sent. A late
// wake-up sends at once and the next email keeps its own due time, so
// lateness never piles up. A run with a Feed sends what it is fed instead.
func (r *Run) arrivals(s *servers) int {
	if r.cfg.Feed != nil {
		return r.fedArrivals(s)
	}
	start := r.log.Start()
	for i := range r.cfg.Emails {
		if r.cfg.Serves != nil && !r.cfg.Serves(i) {
			continue // another replica's
		}
		if !r.send(s, start, i) {
			return i
		}
	}
	return r.cfg.Emails
}

// fedArrivals sends each email index the Feed gives, at its due time,
// until the Feed closes (every email is then accounted for: the others
// are other workers') or the run ends (then none after the last sent).
func (r *Run) fedArrivals(s *servers) int {
	start := r.log.Start()
	for {
		select {
		case i, ok := <-r.cfg.Feed:
			if !ok {
				return r.cfg.Emails
			}
			if i < 0 || i >= r.cfg.Emails {
				continue // not an email of this drill
			}
			if !r.send(s, start, i) {
				return 0
			}
		case <-r.ctx.Done():
			return 0
		}
	}
}

// send waits for email i's due time (and, if paused meanwhile, for the
// resume and the due time the pause shifted), then sends it; false if the
// run ended first.
func (r *Run) send(s *servers, start time.Time, i int) bool {
	for {
		if !r.waitUntil(r.due(start, i)) || !r.waitResumed() {
			return false
		}
		if !time.Now().Before(r.due(start, i)) {
			break
		}
	}
	if r.cfg.lateTick != nil {
		r.cfg.lateTick(i)
	}
	e := r.cfg.Email(i + 1) // past the set's end, the emails cycle through it
	ev := event.Event{Kind: event.EmailSent, Email: e.ID, Unscored: e.Unscored}
	if !e.Unscored {
		truth := e.Truth
		ev.Truth = &truth
	}
	ev.Class, ev.TruthClass = r.routes.classify(e) // before any model call
	// The worker is claimed before the email is logged, so its
	// email_sent says whether it entered the pool: an email turned away
	// was never in flight, however long its rejection takes to log.
	ev.Rejected = !r.pool.take()
	sent := r.log.Append(ev)
	if ev.Rejected {
		r.reject(e, sent.At)
		return true
	}
	c := r.routes.chainFor(ev.Class, r.chain)
	s.run(func() {
		defer r.pool.give()
		r.serve(c, e, sent.At)
	})
	return true
}

// due is when email i (from 0) is due: i / rate after the start, shifted by
// the time arrivals were paused so far. On the virtual clock email i is
// due i nanoseconds later still (virtualTieBreak), so no two emails'
// events ever fall on the same virtual instant.
func (r *Run) due(start time.Time, i int) time.Time {
	r.mu.Lock()
	shift := r.shift
	r.mu.Unlock()
	if r.cfg.Clock == event.ClockVirtual {
		shift += virtualTieBreak(i)
	}
	return start.Add(shift + time.Duration(float64(i)*float64(time.Second)/r.cfg.Rate))
}

// virtualTieBreak is how much later than i / rate email i is due on the
// virtual clock: i nanoseconds. Virtual time stands still while anything
// can run, so events due at one instant (email 5 sent at 2 s, email 3's
// 1 s time limit running out at 2 s) would run in whatever order the
// scheduler picks, and a breaker would see the timeout before the new
// email in one run and after it in the next: the same seed would not give
// the same figures. Every time an email's events fall on is its own due
// time plus whole latencies, time limits and cooldowns, so i nanoseconds
// apart keeps any two emails' events apart; the real clock needs no such
// nudge (nothing there is exactly simultaneous) and gets none.
func virtualTieBreak(i int) time.Duration { return time.Duration(i) }

// serve runs email e through chain c on a worker the caller claimed from
// the pool (the caller gives it back).
func (r *Run) serve(c *chain.Chain, e emails.Email, sentAt time.Duration) {
	ctx := context.WithValue(r.ctx, emailKey{}, e.ID)
	res := c.Serve(ctx, e)
	wait := time.Since(r.log.Start()) - sentAt
	r.log.Append(event.Event{Kind: event.EmailDone, Email: e.ID,
		Result: &event.Result{ServedBy: res.ServedBy, Answer: res.Answer, Reply: res.Reply, Wait: wait,
			Cancelled: res.ServedBy == event.ServedError && ctx.Err() != nil, Handover: res.Handover}})
}

// waitUntil sleeps until t; false if the run ended first.
func (r *Run) waitUntil(t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return r.ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-r.ctx.Done():
		return false
	}
}

// waitResumed holds while arrivals are paused; false if the run ended.
func (r *Run) waitResumed() bool {
	for {
		r.mu.Lock()
		paused, resumed := r.paused, r.resumed
		r.mu.Unlock()
		if !paused {
			return r.ctx.Err() == nil
		}
		select {
		case <-resumed:
		case <-r.ctx.Done():
			return false
		}
	}
}

// Pause holds arrivals; emails already sent go on.
func (r *Run) Pause() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.paused {
		r.paused, r.resumed = true, make(chan struct{})
		r.pausedAt = time.Now()
		r.log.Append(event.Event{Kind: event.Paused})
	}
}

// Resume releases arrivals; the rest of the schedule shifts by the pause.
func (r *Run) Resume() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.paused {
		r.paused = false
		r.shift += time.Since(r.pausedAt)
		close(r.resumed)
		r.log.Append(event.Event{Kind: event.Resumed})
	}
}

// Paused reports whether arrivals are held.
func (r *Run) Paused() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.paused
}

// Stop ends the run now: no more arrivals, in-flight calls are cancelled
// (their results are marked Cancelled: the summary counts them as cancelled,
// not answered), and the status is interrupted.
func (r *Run) Stop() {
	r.mu.Lock()
	r.stopped = true
	r.mu.Unlock()
	r.cancel()
}

// Abort ends the run now, like Stop, because a safeguard tripped: no more
// arrivals, in-flight calls are cancelled, and the status is aborted with
// reason in the run-end event's detail. It does nothing after Stop.
func (r *Run) Abort(reason string) {
	r.mu.Lock()
	if !r.stopped {
		r.stopped, r.abortReason = true, reason
	}
	r.mu.Unlock()
	r.cancel()
}

// Done is closed when the run has ended and its log is closed.
func (r *Run) Done() <-chan struct{} { return r.done }

// Log is the run's event log.
func (r *Run) Log() *event.Log { return r.log }

// Config is the run's configuration.
func (r *Run) Config() Config { return r.cfg }

// Wait waits for the run to end and returns its status: completed,
// interrupted (stopped, or its context ended) or aborted (its ceiling
// cancelled emails in flight or never sent, or Abort was called). Fold
// its log (a live fold, or Log().Batches when it released nothing) for the
// summary.
func (r *Run) Wait() string {
	<-r.done
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status
}

func retryCount(req *http.Request) int {
	n, _ := strconv.Atoi(req.Header.Get("X-Stainless-Retry-Count"))
	return n
}
