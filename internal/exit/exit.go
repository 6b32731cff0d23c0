// Package exit is drill's exit-code vocabulary: the errors that end a
// command with a code other than 1, and the one function that maps an error
// to its code. It sits below every other package of drill, so the code that
// decides an outcome (a usage error, an abort, an interrupt) can say so
// without importing the command.
package exit

import (
	"errors"
	"fmt"
)

// The exit codes drill ends with. A code is a contract: scripts and CI read
// it, so these numbers never change.
const (
	// OK: the command did what it was asked, and every hypothesis held.
	OK = 0
	// Failed: a hypothesis failed, a run that nothing answered, or any
	// other error that is not one of the codes below.
	Failed = 1
	// Usage: bad input from the user (a flag, a value, a file).
	Usage = 2
	// Aborted: an abort condition stopped the drill.
	Aborted = 3
	// Interrupted: the user stopped the drill (Ctrl-C, SIGTERM).
	Interrupted = 130
)

// ErrAborted means an abort condition stopped a drill: exit 3. Wrap it with
// the reason (fmt.Errorf("%w by max spend", exit.ErrAborted)).
var ErrAborted = errors.New("aborted")

// ErrInterrupted means the user stopped a drill: exit 130.
var ErrInterrupted = errors.New("interrupted")

// usageError is bad input from the user: exit 2.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

// Usagef returns a usage error (exit 2) with a formatted message; %w wraps.
func Usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// UsageError marks err as a usage error (exit 2); nil stays nil.
func UsageError(err error) error {
	if err == nil {
		return nil
	}
	return usageError{err}
}

// IsUsage reports whether err is, or wraps, a usage error.
func IsUsage(err error) bool {
	var ue usageError
	return errors.As(err, &ue)
}

// Coder is an error that carries the exit code it should end drill with,
// such as an error that crossed a process boundary with its code.
type Coder interface {
	error
	ExitCode() int
}

// Code maps an error to drill's exit code: 0 for nil, 130 interrupted,
// 3 aborted, 2 usage, a Coder's own code, and 1 for anything else.
func Code(err error) int {
	switch {
	case err == nil:
		return OK
	case errors.Is(err, ErrInterrupted):
		return Interrupted
	case errors.Is(err, ErrAborted):
		return Aborted
	case IsUsage(err):
		return Usage
	}
	if c, ok := errors.AsType[Coder](err); ok {
		return c.ExitCode()
	}
	return Failed
}

// WithCode wraps err so that it carries its exit code across a boundary
// that loses the error's type (the virtual clock's child process).
func WithCode(err error) error {
	if err == nil {
		return nil
	}
	return coded{err: err, code: Code(err)}
}

type coded struct {
	err  error
	code int
}

func (c coded) Error() string { return c.err.Error() }
func (c coded) Unwrap() error { return c.err }
func (c coded) ExitCode() int { return c.code }

var _ Coder = coded{}
