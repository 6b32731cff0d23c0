package cli

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/exit"
)

// TestInterruptibleWhileBlocked: work blocked on something that never
// comes (a read from a pipe with no data) does not hold the command: the
// context ending returns exit.ErrInterrupted at once.
func TestInterruptibleWhileBlocked(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	defer pr.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	err = Interruptible(ctx, func(context.Context) error {
		_, err := pr.Read(make([]byte, 1))
		return err
	})
	if !errors.Is(err, exit.ErrInterrupted) || exit.Code(err) != 130 {
		t.Errorf("err = %v, want exit.ErrInterrupted (exit 130)", err)
	}
	if err := Interruptible(context.Background(), func(context.Context) error { return exit.Usagef("bad") }); exit.Code(err) != 2 {
		t.Errorf("a usage error from work exits %d, want 2", exit.Code(err))
	}
}
