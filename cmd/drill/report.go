package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/chatrun"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/outfile"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/scoring"
)

// reportFlags are drill report's flags.
type reportFlags struct {
	out    string
	dpi    int
	force  bool
	pairs  []string
	expect []string
}

func newReportCmd() *cobra.Command {
	rf := &reportFlags{}
	cmd := &cobra.Command{
		Use:   "report FILE... -o report.html",
		Short: "Turn recorded drills into an HTML or Markdown report",
		Long: `Turn journals written by --record into one report. It opens with a one-screen
overview: the hypotheses given with --expect, PASS or FAIL on every run; the
table across the runs laid out as the lab drill's; and every run's email-by-email chart side
by side on one time axis. Then the paired comparisons (all-4-right by
McNemar's exact test, and the difference in median wait during the outage) of
runs of the same outage, each against the first listed, or the pairs named
with --pair; the settings that differ; and per run its email-by-email chart,
calls per second to each model and a histogram of waits, all runs on shared
scales.

-o report.html writes one self-contained HTML file (charts inline, no network
needed to open it); -o report.md writes Markdown with its chart images in a
directory beside it (report-charts/). A directory argument stands for the
journals (*.jsonl) in it. An existing -o file is refused unless --force is
given, and one of the journals read is refused even with --force.

The report is written whatever the verdicts; drill report exits 1 when a
hypothesis given with --expect fails on any run, as drill run and drill
replay do.`,
		Example: `  drill compare --record runs/
  drill report runs/*.jsonl -o report.html
  drill report runs/ -o report.md
  drill report runs/ --expect 'served.error == 0' --expect 'p95_wait_outage_s < 10'
  drill report runs/ --pair R2,R4 --pair hang/fallback,hang/breaker`,
		Args: cli.UsageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error { return rf.run(cmd, args) },
	}
	cmd.Flags().StringVarP(&rf.out, "output", "o", "report.html", "the report to write: .html (self-contained) or .md (charts beside it)")
	cmd.Flags().BoolVar(&rf.force, "force", false, "let -o overwrite an existing file (never one of the journals read)")
	cmd.Flags().IntVar(&rf.dpi, "dpi", report.DefaultDPI, "resolution of the chart images")
	cmd.Flags().StringArrayVar(&rf.pairs, "pair", nil, "compare these two runs, `A,B` (R1,R3, or outage/policy labels); repeatable; replaces the default pairs")
	cmd.Flags().StringArrayVar(&rf.expect, "expect", nil, "a hypothesis, `figure op value`, judged PASS or FAIL on every run in the overview (exit 1 if it fails on any); repeatable")
	return cmd
}

// run is drill report of the journals args names.
func (rf *reportFlags) run(cmd *cobra.Command, args []string) error {
	if rf.dpi < 10 || rf.dpi > 600 {
		return exit.Usagef("--dpi must be between 10 and 600, got %d", rf.dpi)
	}
	hyps, err := scoring.ParseExprs(rf.expect)
	if err != nil {
		return exit.UsageError(fmt.Errorf("--expect: %w", err))
	}
	paths, err := journal.Expand(args)
	if err != nil {
		return err
	}
	if err := outfile.Check("-o", rf.out, rf.force, cli.InputsOf(cmd.Flags(), paths...)); err != nil {
		return err
	}
	if isChat, err := chatrun.IsJournal(cmd.Context(), paths[0]); err != nil {
		return err
	} else if isChat {
		return chatrun.Report(cli.EnvOf(cmd), paths, rf.out, rf.dpi)
	}
	ctx := cmd.Context()
	var rep *report.Report
	err = cli.Interruptible(ctx, func(context.Context) error {
		var err error
		if rep, err = report.Build(paths); err != nil {
			return journal.ReadError(ctx, err)
		}
		rep.DPI = rf.dpi
		rep.Hypotheses = hyps
		if len(rf.pairs) > 0 {
			if err := rep.SetPairs(rf.pairs); err != nil {
				return exit.UsageError(err)
			}
		}
		if err := rep.WriteFile(rf.out); err != nil {
			if errors.Is(err, report.ErrFormat) {
				return exit.UsageError(err)
			}
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "drill: wrote %s (%s)\n", rf.out, format.Plural(len(rep.Runs), "run"))
	return rep.ExpectFailed() // the report is written either way; a FAIL exits 1, as in run and replay
}
