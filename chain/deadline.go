package chain

import (
	"context"
	"errors"
	"time"

	"github.com/drill-dev/drill/event"
)

// errEmailDeadline is the cause of a call cut by the email's deadline.
var errEmailDeadline = errors.New("the email's deadline ran out")

// errHedgeLost is the cause of a call cancelled because the other call of
// its hedge answered first.
var errHedgeLost = errors.New("the other call of the hedge answered first")

// withDeadline returns ctx bounded by the email's deadline d, with
// errEmailDeadline as the cause when it runs out. Without a deadline (d is
// 0) it returns ctx itself: no context, no timer on every email.
func withDeadline(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeoutCause(ctx, d, errEmailDeadline)
}

// cutOutcome is the outcome of a call whose context the chain itself ended
// while the run went on.
func cutOutcome(ctx context.Context) event.Outcome {
	if errors.Is(context.Cause(ctx), errEmailDeadline) {
		return event.Deadline
	}
	return event.Canceled
}
