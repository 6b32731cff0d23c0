package exit_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/drill-dev/drill/internal/exit"
)

type code7 struct{}

func (code7) Error() string { return "seven" }
func (code7) ExitCode() int { return 7 }

func TestCode(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, 0},
		{"plain", errors.New("boom"), 1},
		{"usage", exit.Usagef("--rate: %q is not a number", "x"), 2},
		{"wrapped usage", fmt.Errorf("drill file: %w", exit.Usagef("bad")), 2},
		{"usage of nil", exit.UsageError(nil), 0},
		{"aborted", fmt.Errorf("%w by max spend", exit.ErrAborted), 3},
		{"interrupted", fmt.Errorf("run: %w", exit.ErrInterrupted), 130},
		{"interrupted beats usage", exit.Usagef("x: %w", exit.ErrInterrupted), 130},
		{"a coder", fmt.Errorf("child: %w", code7{}), 7},
		{"with code keeps it", exit.WithCode(exit.Usagef("bad")), 2},
	} {
		if got := exit.Code(c.err); got != c.want {
			t.Errorf("%s: Code(%v) = %d, want %d", c.name, c.err, got, c.want)
		}
	}
}

func TestWithCodeCarriesTheCodeWhenTheTypeIsLost(t *testing.T) {
	err := exit.WithCode(fmt.Errorf("%w by max spend", exit.ErrAborted))
	var c exit.Coder
	if !errors.As(err, &c) || c.ExitCode() != 3 {
		t.Fatalf("WithCode(aborted) = %v, want a Coder with code 3", err)
	}
	if err.Error() != "aborted by max spend" {
		t.Errorf("message = %q", err.Error())
	}
}
