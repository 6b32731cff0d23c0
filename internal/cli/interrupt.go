package cli

import (
	"context"

	"github.com/drill-dev/drill/internal/exit"
)

// Interruptible runs work in its own goroutine and waits for it, or for
// ctx to end (the first Ctrl-C or SIGTERM), whichever comes first: then it
// returns exit.ErrInterrupted (exit 130) at once, whatever work is blocked on.
// work is given ctx and should stop soon after it ends; drill exits as soon
// as the command returns, which ends work if it has not stopped by then.
func Interruptible(ctx context.Context, work func(context.Context) error) error {
	if ctx.Err() != nil {
		return exit.ErrInterrupted
	}
	done := make(chan error, 1)
	go func() { done <- work(ctx) }()
	select {
	case err := <-done:
		if err != nil && ctx.Err() != nil {
			return exit.ErrInterrupted
		}
		return err
	case <-ctx.Done():
		return exit.ErrInterrupted
	}
}
