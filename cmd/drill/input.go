package main

import (
	"context"
	"errors"
	"io/fs"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
)

// interruptible runs work in its own goroutine and waits for it, or for
// ctx to end (the first Ctrl-C or SIGTERM), whichever comes first: then it
// returns exit.ErrInterrupted (exit 130) at once, whatever work is blocked on.
// work is given ctx and should stop soon after it ends; drill exits as soon
// as the command returns, which ends work if it has not stopped by then.
func interruptible(ctx context.Context, work func(context.Context) error) error {
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

// readError maps an error met reading journals to drill's exit codes: the
// run's context ending is an interruption (exit 130); a path that cannot be
// opened or is not a regular file (a directory, a named pipe, a device, a
// symbolic link loop) and a journal that is missing, not a journal,
// corrupt, invalid or from a newer drill are bad input (exit 2); anything
// else is a failure (exit 1).
func readError(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return exit.ErrInterrupted
	}
	var pe *fs.PathError
	if errors.Is(err, journal.ErrNotFile) || (errors.As(err, &pe) && (pe.Op == "open" || pe.Op == "stat")) {
		return exit.UsageError(err)
	}
	return journalInputError(err)
}
