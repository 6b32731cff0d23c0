package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/report"
)

func newReportCmd() *cobra.Command {
	var (
		out string
		dpi int
	)
	cmd := &cobra.Command{
		Use:   "report FILE... -o report.html",
		Short: "Turn recorded drills into an HTML or Markdown report",
		Long: `Turn journals written by --record into one report: the chapter-style table
across the runs, the settings that differ between them, per run the
email-by-email chart, attempts per second to each model and a histogram of
waits, and for runs of the same emails the paired test of all-4-right
(McNemar, exact) and the difference in median wait during the outage.

-o report.html writes one self-contained HTML file (charts inline, no network
needed to open it); -o report.md writes Markdown with its chart images in a
directory beside it (report-charts/). A directory argument stands for the
journals (*.jsonl) in it.`,
		Example: `  drill compare --record runs/
  drill report runs/*.jsonl -o report.html
  drill report runs/ -o report.md`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dpi < 10 || dpi > 600 {
				return usagef("--dpi must be between 10 and 600, got %d", dpi)
			}
			paths, err := expandJournalArgs(args)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			var rep *report.Report
			err = interruptible(ctx, func(context.Context) error {
				var err error
				if rep, err = report.Build(paths); err != nil {
					return readError(ctx, err)
				}
				rep.DPI = dpi
				if err := rep.WriteFile(out); err != nil {
					if errors.Is(err, report.ErrFormat) {
						return usageError{err}
					}
					return err
				}
				return nil
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "drill: wrote %s (%d run%s)\n", out, len(rep.Runs), map[bool]string{true: "", false: "s"}[len(rep.Runs) == 1])
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "report.html", "the report to write: .html (self-contained) or .md (charts beside it)")
	cmd.Flags().IntVar(&dpi, "dpi", report.DefaultDPI, "resolution of the chart images")
	return cmd
}

// expandJournalArgs turns directory arguments into the journals they hold.
func expandJournalArgs(args []string) ([]string, error) {
	var paths []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, usageError{fmt.Errorf("report: %w", err)}
		}
		if !st.IsDir() {
			paths = append(paths, a)
			continue
		}
		found, err := filepath.Glob(filepath.Join(a, "*.jsonl"))
		if err != nil {
			return nil, usageError{fmt.Errorf("report: %w", err)}
		}
		if len(found) == 0 {
			return nil, usagef("report: %s holds no journals (*.jsonl)", a)
		}
		slices.Sort(found)
		paths = append(paths, found...)
	}
	return paths, nil
}
