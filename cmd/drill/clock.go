package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/present"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/tui"
	"github.com/drill-dev/drill/workload"
)

// runVirtual is `drill run --clock virtual`: the drill runs to its end in
// virtual time, recorded when asked to or when it is to be shown; on a
// terminal the recording then plays in the replay dashboard at speed, and
// the summary is printed as for a real-time run.
func runVirtual(cmd *cobra.Command, cfg workload.Config, opts runOptions, speed float64) error {
	if err := session.VirtualUsage(cfg); err != nil {
		return err
	}
	if err := session.NoLiveAborts(opts.checks.Abort); err != nil {
		return err
	}
	cli.Warn(cmd.ErrOrStderr(), cfg.Warnings())
	// The baseline plays first (about half a second), so the run's
	// summary and journal carry it.
	baseline, err := session.StartBaseline(cmd.Context(), cfg, opts.baseline)
	if err != nil {
		return exit.UsageError(err)
	}
	defer baseline.Close()
	whole := baseline.Whole(cmd.Context())
	if err := baseline.Err(); err != nil && cmd.Context().Err() == nil { // not when Ctrl-C stopped it too
		cli.Warn(cmd.ErrOrStderr(), []string{"no baseline: " + err.Error()})
	}
	var show func(context.Context, []event.Event) error
	if opts.tui {
		show = func(ctx context.Context, evs []event.Event) error {
			// The baseline's whole-run figures, as its journal records them.
			return tui.Replay(ctx, evs, tui.ReplayOptions{Speed: speed, Hypotheses: opts.checks.Hypotheses, Baseline: whole})
		}
	}
	o, err := session.VirtualRun(cmd.Context(), cfg, opts.checks.Hypotheses, opts.record, opts.force, show, cmd.ErrOrStderr(), whole)
	if err != nil {
		return err
	}
	cli.Warn(cmd.ErrOrStderr(), plain.AfterWarnings(o.Summary))
	return present.PrintJudged(cmd.OutOrStdout(), cmd.ErrOrStderr(), present.Finished{Summary: o.Summary, Status: o.Status, Failed: o.Failed}, opts.checks, opts.json)
}
