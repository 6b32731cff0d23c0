package main

import (
	"context"
	"errors"
	"os"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/session"
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
	return runDrill(cmd, workload.DefaultConfig(), runOptions{tui: stdoutIsTerminal(), baseline: plan.BaselineNoBreakers})
}

// dashboard shows the live dashboard for a run on the terminal until the
// user quits; quitting early stops the run. It returns once the terminal is
// restored; the caller then waits for the run and prints its summary.
// The hypotheses are judged live in the dashboard's header. early is set
// when the user ended the drill early with q (a normal end: its exit code
// is its verdict's), not ctrl+c (an interruption, exit 130).
func dashboard(hyps []scoring.Expr, early *bool) func(context.Context, *workload.Run, *session.Baseline) error {
	return func(ctx context.Context, run *workload.Run, baseline *session.Baseline) error {
		src := tui.Source{Log: run.Log(), Controls: run, Hypotheses: hyps}
		if baseline != nil {
			src.Baseline = baseline
		}
		var err error
		*early, err = tui.Run(ctx, src, tui.Options{Output: os.Stdout})
		if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			// Interrupted by a signal: the run stops with ctx and its partial
			// summary is still printed.
			run.Stop()
			return nil
		}
		return err
	}
}

// stdoutIsTerminal reports whether stdout is a terminal (the dashboard's
// condition, with neither --no-tui nor --json).
func stdoutIsTerminal() bool { return session.IsTerminal(os.Stdout) }
