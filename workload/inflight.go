package workload

import (
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

// workerPool is the fixed pool of workers the workload's callers share
// (--max-in-flight): each email holds one from its arrival to its result,
// through every rung. A hang holds workers for as long as its calls wait,
// so at a steady rate Little's law (in flight = arrival rate × time in the
// system) says how many it takes; past the pool, work that never touches
// the broken model is turned away too. A nil pool has no limit.
type workerPool struct {
	slots chan struct{}
}

// newWorkerPool returns a pool of n workers; nil for n <= 0 (no limit).
func newWorkerPool(n int) *workerPool {
	if n <= 0 {
		return nil
	}
	return &workerPool{slots: make(chan struct{}, n)}
}

// take claims a worker without waiting: false when every worker is busy.
func (p *workerPool) take() bool {
	if p == nil {
		return true
	}
	select {
	case p.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

// give returns a worker taken by take.
func (p *workerPool) give() {
	if p != nil {
		<-p.slots
	}
}

// reject ends an email the pool had no worker for: it is done at once,
// served by event.ServedRejected, with the time to the rejection as its
// wait.
func (r *Run) reject(e emails.Email, sentAt time.Duration) {
	wait := time.Since(r.log.Start()) - sentAt
	r.log.Append(event.Event{Kind: event.EmailDone, Email: e.ID,
		Result: &event.Result{ServedBy: event.ServedRejected, Wait: wait}})
}
