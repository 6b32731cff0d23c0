package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	bprogress "github.com/charmbracelet/bubbles/progress"
	"github.com/mattn/go-isatty"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
	"github.com/drill-dev/drill/workload"
)

// A run is what the dashboard controls.
var _ tui.Controls = (*workload.Run)(nil)

// runDefault is drill with no command: the default drill (busy outage
// 15–40 s, breaker policy, built-in fake model), in the dashboard when stdout
// is a terminal and with plain progress lines when it is not.
func runDefault(cmd *cobra.Command) error {
	return runDrill(cmd, workload.DefaultConfig(), runOptions{tui: stdoutIsTerminal()})
}

// runDashboard shows the live dashboard for run on the terminal until the
// user quits; quitting early stops the run. It returns once the terminal is
// restored; the caller then waits for the run and prints its summary.
// The hypotheses are judged live in the dashboard's header.
func runDashboard(ctx context.Context, run *workload.Run, hyps []scoring.Expr) error {
	err := tui.Run(ctx, tui.Source{Log: run.Log(), Controls: run, Hypotheses: hyps}, tui.Options{Output: os.Stdout})
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		// Interrupted by a signal: the run stops with ctx and its partial
		// summary is still printed.
		run.Stop()
		return nil
	}
	return err
}

// stdoutIsTerminal reports whether stdout is a terminal (the dashboard's
// condition, with neither --no-tui nor --json).
func stdoutIsTerminal() bool { return isTerminal(os.Stdout) }

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// newCompareProgress draws a progress bar (bubbles/progress) for `drill
// compare` on w when w is a terminal: update(done) redraws it with done of
// total runs finished, stop clears it. When w is not a terminal both do
// nothing, so piped output stays plain. Both are safe for concurrent use.
func newCompareProgress(w io.Writer, total int) (update func(done int), stop func()) {
	if !isTerminal(w) || total <= 0 {
		return func(int) {}, func() {}
	}
	out := termenv.NewOutput(w)
	bar := bprogress.New(bprogress.WithDefaultGradient(), bprogress.WithWidth(40),
		bprogress.WithColorProfile(out.EnvColorProfile()))
	var mu sync.Mutex
	stopped := false
	update = func(done int) {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		done = min(max(done, 0), total)
		fmt.Fprintf(w, "\r\x1b[2K%s %d/%d emails", bar.ViewAs(float64(done)/float64(total)), done, total)
	}
	stop = func() {
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			stopped = true
			fmt.Fprint(w, "\r\x1b[2K")
		}
	}
	update(0)
	return update, stop
}
