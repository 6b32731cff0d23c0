package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/history"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/report"
)

func newHistoryCmd() *cobra.Command {
	var (
		groupBy string
		expect  []string
		out     string
		force   bool
	)
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
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if out != "" {
				if err := checkOutput(out, args, force); err != nil {
					return err
				}
			}
			var (
				t    history.Trend
				page bytes.Buffer
			)
			err := interruptible(ctx, func(ctx context.Context) error {
				var err error
				if t, err = history.Read(ctx, args, groupBy, expect); err != nil {
					return journal.ReadError(ctx, err)
				}
				if out != "" {
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
			if out != "" {
				if ctx.Err() != nil {
					return exit.ErrInterrupted
				}
				if err := writeWhole(out, page.Bytes()); err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "drill: wrote %s\n", out)
			}
			return t.Err()
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&groupBy, "group-by", history.ByOutagePolicy,
		"what makes runs one drill: "+strings.Join(history.GroupBys, " or "))
	fs.StringVarP(&out, "output", "o", "", "also write the history as an HTML page with a trend chart per figure")
	fs.BoolVar(&force, "force", false, "overwrite an existing -o file (never one of the journals read)")
	fs.StringArrayVar(&expect, "expect", nil, "an expectation against history, 'figure op bound' (repeatable)")
	cmd.PreRunE = func(*cobra.Command, []string) error {
		for _, g := range history.GroupBys {
			if g == groupBy {
				return nil
			}
		}
		return exit.Usagef("--group-by %q: valid are %s", groupBy, strings.Join(history.GroupBys, ", "))
	}
	return cmd
}

// checkOutput refuses an output file that is one of the inputs (a journal
// named, or one in a directory named), whatever --force says, and an
// existing file without force: usage errors (exit 2), before any work.
func checkOutput(out string, inputs []string, force bool) error {
	st, err := os.Stat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return exit.Usagef("-o %s: %w", out, err)
	}
	if st.IsDir() {
		return exit.Usagef("-o %s is a directory", out)
	}
	files, err := journal.Expand(inputs)
	if err != nil {
		return err
	}
	for _, in := range files {
		if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
			return exit.Usagef("-o %s is one of the journals read (%s): drill history never overwrites its input", out, in)
		}
	}
	if !force {
		return exit.Usagef("-o %s exists: give --force to overwrite it", out)
	}
	return nil
}

// writeWhole writes data to path through a temporary file in the same
// directory renamed over it, so path is either whole or untouched.
func writeWhole(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
