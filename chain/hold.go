package chain

import (
	"context"
	"sync"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

// Defaults of a Hold.
const (
	// DefaultHoldWait is how long an email may wait for the primary when
	// its route does not say.
	DefaultHoldWait = 60 * time.Second
	// DefaultHoldQueue is how many emails of one route may wait for the
	// primary at once when the route does not say.
	DefaultHoldQueue = 50
	// holdPoll is how often a waiting email looks at the primary's breaker.
	holdPoll = 100 * time.Millisecond
)

// Hold keeps a chain's emails off the backup (a route's `backup: never`):
// the chain has only the primary, and an email it cannot answer at once is
// handed to a person (event.HoldPerson) or waits for the primary
// (event.HoldWaitForPrimary). Either way the customer is told.
type Hold struct {
	// Mode is event.HoldPerson or event.HoldWaitForPrimary.
	Mode string
	// Wait bounds an email's wait for the primary, from its arrival;
	// 0 means DefaultHoldWait.
	Wait time.Duration
	// Queue holds the emails waiting for the primary; nil means a queue of
	// DefaultHoldQueue, made on first use. Share one per route.
	Queue *Queue

	once sync.Once
}

// Queue is a bounded queue of emails waiting for the primary. It is safe
// for concurrent use.
type Queue struct {
	mu      sync.Mutex
	cap, in int
}

// NewQueue returns a queue for at most capacity emails at once (at least 1).
func NewQueue(capacity int) *Queue { return &Queue{cap: max(capacity, 1)} }

// enter takes a place in the queue; false when it is full.
func (q *Queue) enter() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.in >= q.cap {
		return false
	}
	q.in++
	return true
}

// leave gives a place back.
func (q *Queue) leave() {
	q.mu.Lock()
	q.in--
	q.mu.Unlock()
}

func (h *Hold) queue() *Queue {
	h.once.Do(func() {
		if h.Queue == nil {
			h.Queue = NewQueue(DefaultHoldQueue)
		}
	})
	return h.Queue
}

func (h *Hold) wait() time.Duration {
	if h.Wait > 0 {
		return h.Wait
	}
	return DefaultHoldWait
}

// serveHeld serves e with the primary alone, under h. A person-held email
// the primary does not answer (its breaker open, its call failed) is handed
// over at once. A waiting email takes a place in the queue and asks again
// whenever the primary's breaker is not open, until the primary answers or
// its wait runs out; a full queue hands it over at once.
func (c *Chain) serveHeld(ctx context.Context, e emails.Email, h *Hold) Result {
	start := time.Now()
	var res Result
	if len(c.Rungs) == 0 {
		res.ServedBy = event.ServedError
		return res
	}
	primary := c.Rungs[0]
	callCtx, cancel := withDeadline(ctx, c.EmailDeadline)
	defer cancel()
	handover := &event.Handover{Mode: h.Mode}
	queued := false
	defer func() {
		if queued {
			h.queue().leave()
		}
	}()
	for {
		// A run that ended ends callCtx too: the switch below hands it to
		// the check after it, which makes the email an error.
		if callCtx.Err() == nil && c.try(callCtx, ctx, e, primary, &res) {
			if queued {
				handover.Waited = time.Since(start) - handover.Told
				res.Handover = handover
			}
			return res
		}
		reason := string(event.Deadline)
		if n := len(res.Errors); n > 0 {
			reason = string(res.Errors[n-1].Outcome)
		}
		switch {
		case h.Mode != event.HoldWaitForPrimary || callCtx.Err() != nil:
		case time.Since(start) >= h.wait():
			reason = event.HandoverDeadline
		case !queued && !h.queue().enter():
			reason = event.HandoverQueueFull
		default:
			if !queued {
				queued, handover.Told = true, time.Since(start) // the customer is told it will take longer
			}
			awaitPrimary(ctx, primary.Breaker(), start.Add(h.wait()))
			continue
		}
		if ctx.Err() != nil {
			res.ServedBy = event.ServedError
			return res
		}
		waited := time.Since(start)
		if queued {
			handover.Waited = waited - handover.Told
		}
		handover.Reason, handover.Told = reason, waited
		res.ServedBy, res.Handover = event.ServedHandedOver, handover
		return res
	}
}

// awaitPrimary waits until b is not open (a probe may go through, or it
// closed), until, or ctx ends. Without a breaker it waits one poll: the
// next call is the only way to learn the primary is back.
func awaitPrimary(ctx context.Context, b *breaker.Breaker, until time.Time) {
	for {
		d := min(holdPoll, time.Until(until))
		if d <= 0 {
			return
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		if b == nil || b.State() != breaker.Open {
			return
		}
	}
}
