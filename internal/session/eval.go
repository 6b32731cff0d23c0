package session

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/drill-dev/drill/internal/eval"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/vclock"
)

// evalBody is the name drill eval's virtual-clock body is registered under.
const evalBody = "eval"

func init() { vclock.Register(evalBody, evalInBubble) }

// Eval is drill eval: it evaluates (eval.Evaluate), showing the progress
// of the calls on stderr, and writes the result to stdout
// (plain.Eval).
func Eval(ctx context.Context, stdout, stderr io.Writer, cfg eval.Config) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ev, err := eval.Evaluate(ctx, cfg, func(total int, done func() int) func() {
		return StartProgress(stderr, "eval", "calls", total, done)
	})
	if err != nil {
		return err
	}
	return plain.Eval(stdout, stderr, ev, cfg.JSON, cfg.Misses)
}

// EvalVirtual is drill eval --clock virtual: the evaluation runs in a
// virtual-clock child against the fake model's in-process transport.
func EvalVirtual(ctx context.Context, stdout, stderr io.Writer, cfg eval.Config) error {
	if cfg.BaseURL != "" {
		return exit.Usagef("%w: it can only use the built-in fake model, not --base-url %s; use --clock real",
			vclock.ErrNotVirtual, cfg.BaseURL)
	}
	cfg.InProcess = true
	return FromChild(vclock.Call(ctx, evalBody, cfg, stdout, stderr))
}

// evalInBubble is drill eval's body in the virtual-clock child.
func evalInBubble(ctx context.Context, in []byte, out io.Writer) error {
	var cfg eval.Config
	if err := json.Unmarshal(in, &cfg); err != nil {
		return fmt.Errorf("decoding the evaluation: %w", err)
	}
	if err := Eval(ctx, out, os.Stderr, cfg); err != nil {
		return exit.WithCode(err)
	}
	return nil
}
