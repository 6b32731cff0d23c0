package session

import (
	"fmt"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// GuardInterval is how often Guard checks the abort conditions.
const GuardInterval = 250 * time.Millisecond

// Abortable is a run a Guard can abort (*workload.Run).
type Abortable interface {
	Log() *event.Log
	Done() <-chan struct{}
	Abort(reason string)
}

// Guard follows the run's log with its own cursor and fold and, every
// interval while the run goes on, checks the abort conditions on the
// figures so far. When one holds it aborts the run (arrivals stop, calls in
// flight are cancelled, the status is aborted) and stops checking. A
// condition on a figure not measured yet (null) does not hold. Guard
// returns when the run is done, with the tripped condition and its value
// ("" if none tripped), so it never outlives the run.
func Guard(run Abortable, conds []scoring.Expr, interval time.Duration) string {
	return <-StartGuard(run, conds, interval)
}

// StartGuard is Guard in a goroutine of its own, its cursor attached to the
// log before StartGuard returns (a log that releases events keeps them
// until the guard has read them); the channel gets Guard's result.
func StartGuard(run Abortable, conds []scoring.Expr, interval time.Duration) <-chan string {
	out := make(chan string, 1)
	if len(conds) == 0 {
		go func() {
			<-run.Done()
			out <- ""
		}()
		return out
	}
	cur := run.Log().Cursor()
	go func() { out <- guard(run, cur, conds, interval) }()
	return out
}

// guard is Guard's loop, reading the log with cur.
func guard(run Abortable, cur *event.Cursor, conds []scoring.Expr, interval time.Duration) string {
	fold := scoring.NewFold()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-run.Done():
			return ""
		case <-tick.C:
		}
		for _, e := range cur.Poll() {
			fold.Add(e)
		}
		figs, err := scoring.FiguresOf(fold.Summary())
		if err != nil {
			continue // a summary always marshals; nothing to check without it
		}
		for _, c := range conds {
			if ok, v := c.Holds(figs); ok {
				reason := fmt.Sprintf("%s (measured %s)", c, scoring.FormatValue(v))
				run.Abort(reason)
				<-run.Done()
				return reason
			}
		}
	}
}
