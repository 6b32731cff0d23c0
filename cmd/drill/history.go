package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/history"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/outfile"
	"github.com/drill-dev/drill/internal/report"
)

// historyFlags are drill history's flags.
type historyFlags struct {
	groupBy string
	expect  []string
	out     string
	force   bool
}

func newHistoryCmd() *cobra.Command {
	hf := &historyFlags{}
	cmd := &cobra.Command{
		Use:   "history FILE|DIR...",
		Short: "The same drill over months: each headline figure per run date, regressions flagged",
		Long: `Read the journals of the same drill recorded over months (--record) and show
each headline figure per run date, one table per drill: runs of the same outage
against the same policy (--group-by outage-policy), or of the same drill file
first (--group-by file). A directory argument stands for the journals (*.jsonl)
in it. Every figure is the journal's summary recomputed by the fold, as drill
replay does.

A value is flagged (!) as a regression when it is worse than every earlier run
of its drill by more than those runs vary among themselves (at least 5 % of the
bound), once two earlier runs measured it.

--expect judges the latest run of each drill against the ones before it:
'figure op bound', where the bound is a number or previous, first, min, max,
mean or median of the earlier runs, times, plus or minus a number. drill
history exits 1 when an expectation fails, so CI can gate on it.

-o FILE.html also writes the history as a self-contained HTML page: the
tables, and each headline figure's trend per run date as a chart. It never
overwrites one of the journals read, and an existing file only with --force;
the page appears whole or not at all.

The first Ctrl-C (or SIGTERM) stops drill history within a second, exit 130,
with nothing written.`,
		Example: `  drill history drills/monthly/
  drill history runs/2026-*.jsonl --expect 'calls_to_broken_outage <= previous * 1.2'
  drill history runs/ --expect 'breaker_first_open_s <= max + 2' --expect 'all4_right >= mean - 0.05'
  drill history drills/monthly/ -o history.html`,
		Args: cli.UsageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error { return hf.run(cmd, args) },
	}
	fs := cmd.Flags()
	fs.StringVar(&hf.groupBy, "group-by", history.ByOutagePolicy,
		"what makes runs one drill: "+strings.Join(history.GroupBys, " or "))
	fs.StringVarP(&hf.out, "output", "o", "", "also write the history as an HTML page with a trend chart per figure")
	fs.BoolVar(&hf.force, "force", false, "overwrite an existing -o file (never one of the journals read)")
	fs.StringArrayVar(&hf.expect, "expect", nil, "an expectation against history, 'figure op bound' (repeatable)")
	cmd.PreRunE = func(*cobra.Command, []string) error {
		for _, g := range history.GroupBys {
			if g == hf.groupBy {
				return nil
			}
		}
		return exit.Usagef("--group-by %q: valid are %s", hf.groupBy, strings.Join(history.GroupBys, ", "))
	}
	return cmd
}

// run is drill history: the tables (and the HTML page with -o) of the
// journals args names.
func (hf *historyFlags) run(cmd *cobra.Command, args []string) error {
	ctx := cmd.Context()
	if hf.out != "" {
		if err := history.CheckOutput(hf.out, args, hf.force); err != nil {
			return err
		}
	}
	var (
		t    history.Trend
		page bytes.Buffer
	)
	err := cli.Interruptible(ctx, func(ctx context.Context) error {
		var err error
		if t, err = history.Read(ctx, args, hf.groupBy, hf.expect); err != nil {
			return journal.ReadError(ctx, err)
		}
		if hf.out != "" {
			return report.WriteHistoryHTML(&page, t, report.DefaultDPI)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := history.WriteTable(cmd.OutOrStdout(), t.Groups, t.Judgements); err != nil {
		return err
	}
	if hf.out != "" {
		if ctx.Err() != nil {
			return exit.ErrInterrupted
		}
		if err := outfile.WriteWhole(hf.out, page.Bytes()); err != nil {
			return err
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "drill: wrote %s\n", hf.out)
	}
	return t.Err()
}
