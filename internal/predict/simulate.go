package predict

import (
	"context"
	"math"
	"slices"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/internal/sdkprofile"
)

// call is one call to the broken rung on paper.
type call struct {
	end     float64 // when it ends, seconds from the run's start; +Inf: never
	failed  bool
	ignored bool      // failed on a rate limit the breaker does not count
	broken  []float64 // start times of the attempts that started during the outage
}

// call works out one call sent at t: each attempt that starts inside the
// outage fails (busy at once, hang at its time limit, the rest as the
// SDK's profile plays them); one that starts outside gets the healthy
// latency lat (cut by an attempt-scope limit); failed attempts are retried
// after the SDK's wait (its backoff, or the server's Retry-After as the
// profile reads it), unless the profile says the SDK does not retry them.
func (m *model) call(t, lat float64, sc scenario) call {
	limit := m.limit().Seconds()
	attemptLimit := limit
	if m.request {
		attemptLimit = 0
	}
	var c call
	start := t
	for j := range m.rp.Retries + 1 {
		var failAt float64
		retried, hint := true, time.Duration(0)
		inOutage := start >= m.from && start < m.to
		if inOutage {
			c.broken = append(c.broken, start)
		}
		attemptLat := lat
		if inOutage && m.slow {
			attemptLat += m.delay.Seconds()
			if sc.jitterHigh {
				attemptLat += m.jitter.Seconds()
			}
		}
		if inOutage && !m.slow {
			switch {
			case m.kind != "busy" && !m.hang:
				a := m.sdk.Attempt(m.fault, m.settings())
				retried, hint = a.Retried, a.Hint
				if !a.Failed {
					c.end = start + a.Duration.Seconds()
					return c
				}
				failAt = math.Inf(1)
				if a.Duration != sdkprofile.Forever {
					failAt = start + a.Duration.Seconds()
				}
				// A fault in the body comes once the model has answered:
				// a reset there after its latency, and an idle limit
				// (python's read timeout) counts from its last byte.
				if m.fault.AtBody || (m.kind == "stall" && m.sdk.Timeout.PerRead) {
					failAt += lat
				}
				c.ignored = !m.counted()
			case !m.hang:
				failAt = start
			case attemptLimit > 0:
				failAt = start + attemptLimit
			default:
				failAt = math.Inf(1) // held until the request timeout, or forever
			}
		} else {
			lat := attemptLat
			if attemptLimit == 0 || lat <= attemptLimit {
				c.end = start + lat
				break
			}
			failAt = start + attemptLimit
		}
		wait, again := m.wait(j, hint, sc.jitterHigh)
		if j == m.rp.Retries || math.IsInf(failAt, 1) || !retried || !again {
			c.end, c.failed = failAt, true
			break
		}
		c.ignored = false
		start = failAt + wait
	}
	if m.request && limit > 0 && c.end-t > limit {
		c.end, c.failed = t+limit, true
	}
	return c
}

// slowCalls picks, for a scenario with slow healthy calls, the slowK
// emails sent before the outage whose slowness counts earliest after it
// starts: the first ones sent within one threshold of the outage start.
func (m *model) slowCalls(sc scenario) map[int]bool {
	marked := map[int]bool{}
	if !sc.slowK || m.slowK == 0 {
		return marked
	}
	th := m.slowThreshold().Seconds()
	for i := range m.cfg.Emails {
		t := float64(i) * m.interval
		if t >= m.from {
			break
		}
		if t+th >= m.from && len(marked) < m.slowK {
			marked[i] = true
		}
	}
	return marked
}

// simResult is one replay of the drill on paper.
type simResult struct {
	openedBefore bool // opened on healthy traffic before the outage
	opened       bool
	firstOpen    float64 // after the outage start
	worstWait    float64 // of emails sent during the outage; +Inf: unbounded
	calls        int     // attempts to the broken model during the outage
}

// pending is a call whose result the breaker has not heard yet.
type pending struct {
	at     float64
	ticket breaker.Ticket
	result breaker.Result
}

// simulate replays the arrival schedule against the broken rung's breaker
// (the breaker package itself, on a paper clock) for one scenario.
func (m *model) simulate(ctx context.Context, sc scenario) (simResult, error) {
	r := &paperRun{m: m, sc: sc, base: time.Unix(0, 0), slow: m.slowCalls(sc)}
	r.lat, r.nextLat = m.lat.fast.Seconds(), m.nextLat.fast.Seconds()
	if sc.slowBody {
		r.lat, r.nextLat = m.lat.slow.Seconds(), m.nextLat.slow.Seconds()
	}
	if m.bp != nil {
		r.b = breaker.New(r.settings(*m.bp)) // customer probes: a synthetic probe does not move the first open
	}
	for i := range m.cfg.Emails {
		if i%simulateCheckEvery == 0 && ctx.Err() != nil {
			return r.res, ctx.Err()
		}
		t := float64(i) * m.interval
		r.flush(t)
		wait := r.email(i, t)
		wait = min(wait, m.cutAt(t, r.nextLat)-t)
		if t >= m.from && t < m.to {
			r.res.worstWait = max(r.res.worstWait, wait)
		}
	}
	r.flush(m.cfg.Ceiling().Seconds())
	return r.res, nil
}

// paperRun is one scenario's replay on a paper clock: the breaker, the
// calls whose results it has not heard yet, and what the replay found.
type paperRun struct {
	m            *model
	sc           scenario
	base         time.Time
	now          float64 // seconds on the paper clock
	b            *breaker.Breaker
	queue        []pending // by end time
	lat, nextLat float64
	slow         map[int]bool // the emails whose healthy call is the slowest
	res          simResult
}

// settings are the breaker's settings on the paper clock, noting its first
// open after the outage starts (and any open before it).
func (r *paperRun) settings(s breaker.Settings) breaker.Settings {
	s.Name = "predict"
	s.Now = func() time.Time { return r.base.Add(time.Duration(r.now * float64(time.Second))) }
	s.OnChange = func(ch breaker.Change) {
		at := ch.At.Sub(r.base).Seconds()
		switch {
		case ch.To != breaker.Open:
		case at < r.m.from-1e-9:
			r.res.openedBefore = true
		case !r.res.opened:
			r.res.opened, r.res.firstOpen = true, at-r.m.from
		}
	}
	return s
}

// flush tells the breaker the results of the calls ended by upTo, each at
// its end, and moves the clock to upTo.
func (r *paperRun) flush(upTo float64) {
	for len(r.queue) > 0 && r.queue[0].at <= upTo {
		p := r.queue[0]
		r.queue = r.queue[1:]
		r.now = p.at
		r.b.Done(p.ticket, p.result)
	}
	r.now = upTo
	if r.b != nil {
		r.b.State()
	}
}

// email sends email i at t through the breaker and returns its wait
// (before the chain's cut).
func (r *paperRun) email(i int, t float64) float64 {
	m := r.m
	allowed := true
	var tk breaker.Ticket
	if r.b != nil {
		var err error
		tk, err = r.b.Allow()
		allowed = err == nil
	}
	if !allowed {
		if m.next {
			return r.nextLat
		}
		return 0
	}
	l := r.lat
	if r.slow[i] {
		l = m.lat.slowest.Seconds()
	}
	c := m.call(t, l, r.sc)
	res := breaker.Success
	switch {
	case c.failed && c.ignored:
		res = breaker.Ignored
	case c.failed:
		res = breaker.Failure
	}
	// The chain cuts a call that outlives the email's deadline or loses
	// its hedge: cancelled, the breaker ignores it.
	cut := m.cutAt(t, r.nextLat) < c.end
	if cut {
		c.end, c.failed, res = m.cutAt(t, r.nextLat), true, breaker.Ignored
	}
	for _, a := range c.broken {
		if a < c.end || (!cut && a == c.end) {
			r.res.calls++
		}
	}
	if r.b != nil && !math.IsInf(c.end, 1) {
		r.pend(pending{c.end, tk, res})
	}
	wait := c.end - t
	if c.failed && m.next {
		wait += r.nextLat
	}
	return wait
}

// pend queues a call's result for the breaker, in end-time order (after
// those ending at the same time).
func (r *paperRun) pend(p pending) {
	at, _ := slices.BinarySearchFunc(r.queue, p, func(a, b pending) int {
		if a.at <= b.at {
			return -1
		}
		return 1
	})
	r.queue = slices.Insert(r.queue, at, p)
}

// simulateCheckEvery is how many emails simulate walks between looks at
// whether its context has ended.
const simulateCheckEvery = 1024

// cutAt is when the chain cancels the broken rung's call of an email sent
// at t: the email's deadline, or the hedge's answer (hedge-after plus the
// next rung's latency); +Inf if neither applies.
func (m *model) cutAt(t, nextLat float64) float64 {
	cut := math.Inf(1)
	if m.next && m.cfg.Policy.HedgeAfter > 0 {
		cut = t + m.cfg.Policy.HedgeAfter.Seconds() + nextLat
	}
	if d := m.cfg.Policy.EmailDeadline.Seconds(); d > 0 {
		cut = min(cut, t+d)
	}
	return cut
}
