package chain

import (
	"context"
	"errors"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

type hedgedKey struct{}

// Hedged reports whether ctx is that of a rung call started as a hedge.
func Hedged(ctx context.Context) bool {
	h, _ := ctx.Value(hedgedKey{}).(bool)
	return h
}

// HedgeLost reports whether ctx is that of a call cancelled because the
// other call of its hedge answered first.
func HedgeLost(ctx context.Context) bool {
	return ctx.Err() != nil && errors.Is(context.Cause(ctx), errHedgeLost)
}

// hedgeResult is one finished call of a hedge.
type hedgeResult struct {
	rung    *Rung
	answer  emails.Answer
	outcome event.Outcome
	err     error
}

// serveHedged asks first for an answer and, if it has not answered after
// HedgeAfter, second too: the first valid answer wins and the other call is
// cancelled (and logged as lost). If first fails before HedgeAfter, second
// is asked as usual. It reports whether either served the email; both
// calls have ended when it returns.
func (c *Chain) serveHedged(ctx, run context.Context, e emails.Email, first, second *Rung, res *Result) bool {
	t1, ok := c.allow(ctx, first, res)
	if !ok {
		return c.try(ctx, run, e, second, res)
	}
	results := make(chan hedgeResult, 2)
	call := func(ctx context.Context, r *Rung, do func() (emails.Answer, event.Outcome, error)) {
		a, o, err := do()
		results <- hedgeResult{r, a, o, err}
	}
	ctx1, cancel1 := context.WithCancelCause(ctx)
	defer cancel1(nil)
	go call(ctx1, first, func() (emails.Answer, event.Outcome, error) { return c.callRung(ctx1, run, e, first, t1) })
	ctx2, cancel2 := context.WithCancelCause(context.WithValue(ctx, hedgedKey{}, true))
	defer cancel2(nil)

	timer := time.NewTimer(c.HedgeAfter)
	defer timer.Stop()
	running, hedging := 1, false
	for running > 0 {
		select {
		case <-timer.C:
			hedging = true
			t2, ok := c.allow(ctx, second, res)
			if !ok {
				continue
			}
			running++
			go call(ctx2, second, func() (emails.Answer, event.Outcome, error) { return c.callRung(ctx2, run, e, second, t2) })
		case hr := <-results:
			running--
			if hr.err == nil {
				cancel1(errHedgeLost)
				cancel2(errHedgeLost)
				for ; running > 0; running-- {
					<-results // the loser, cancelled: not a failure of the chain
				}
				res.ServedBy, res.Answer = hr.rung.cfg.Name, &hr.answer
				return true
			}
			res.Errors = append(res.Errors, RungError{Rung: hr.rung.cfg.Name, Outcome: hr.outcome, Err: hr.err})
			if hr.rung == first && !hedging {
				return c.try(ctx, run, e, second, res)
			}
		}
	}
	return false
}
