package main

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
)

func newReplayCmd() *cobra.Command {
	var (
		speed          float64
		at             time.Duration
		expect         []string
		jsonOut, noTUI bool
	)
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Replay a recorded drill in the dashboard, or print its summary",
		Long: `Replay a journal written by --record. With a terminal on stdout it shows the
dashboard fed from the journal, every pane as live: space pauses, ←/→ seek 5 s,
+/- change the speed. With --no-tui or --json it prints the summary recomputed
from the recorded events — the same summary the live run printed. A journal
cut short (a crash, a kill) replays up to its last whole line, status
interrupted. After q the summary is printed, as after drill run.

--at opens the dashboard paused at that point of the run (space plays on);
--expect judges hypotheses live in the header, as drill run does, and on the
final summary: a failed one exits 1.`,
		Example: `  drill replay r.jsonl
  drill replay r.jsonl --speed 4
  drill replay r.jsonl --at 45s
  drill replay r.jsonl --expect 'served.error == 0'
  drill replay r.jsonl --no-tui --json`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if speed <= 0 {
				return exit.Usagef("--speed must be positive, got %v", speed)
			}
			if at < 0 {
				return exit.Usagef("--at must not be negative, got %v", at)
			}
			hyps, err := scoring.ParseExprs(expect)
			if err != nil {
				return exit.UsageError(fmt.Errorf("--expect: %w", err))
			}
			path := args[0]
			if st, err := os.Stat(path); err == nil && st.IsDir() {
				return exit.Usagef("replay takes one journal file; %s is a directory (drill report %s reads every journal in it)", path, path)
			}
			ctx := cmd.Context()
			if !noTUI && !jsonOut && stdoutIsTerminal() {
				var j *journal.Journal
				err := interruptible(ctx, func(ctx context.Context) (err error) {
					j, err = journal.ReadFileContext(ctx, path)
					return err
				})
				if err != nil {
					return readError(ctx, err)
				}
				err = tui.Replay(ctx, j.Events, tui.ReplayOptions{Speed: speed, At: at, Hypotheses: hyps})
				if err != nil && ctx.Err() != nil {
					return exit.ErrInterrupted // Ctrl-C or SIGTERM: exit 130
				}
				if err != nil {
					return err
				}
				// Like drill run: the summary stays on the terminal after q.
				fold := scoring.NewFold()
				fold.AddAll(j.Events)
				sum := fold.Summary()
				vs, verr := judgeReplay(sum, hyps)
				if err := printVerdicts(cmd.OutOrStdout(), vs); err != nil {
					return err
				}
				if err := printSummary(cmd.OutOrStdout(), sum, false); err != nil {
					return err
				}
				printFailedCalls(cmd.OutOrStdout(), fold)
				return verr
			}
			var (
				fold = scoring.NewFold()
				meta journal.Meta
			)
			err = interruptible(ctx, func(ctx context.Context) (err error) {
				meta, err = journal.ScanContext(ctx, path, func(e event.Event) error {
					fold.Add(e)
					return nil
				})
				return err
			})
			if err != nil {
				// Interrupted, the scan may still be folding: leave the
				// fold alone.
				return readError(ctx, err)
			}
			sum := fold.Summary()
			errw := cmd.ErrOrStderr()
			switch {
			case meta.Truncated:
				fmt.Fprintf(errw, "drill: %s was cut short in the middle of line %d; replayed the %d events before it, status %s\n",
					path, meta.CutLine, meta.Events, meta.Status())
			case meta.CutShort():
				fmt.Fprintf(errw, "drill: %s was cut short (no summary line); replayed its %d events, status %s\n",
					path, meta.Events, meta.Status())
			default:
				fmt.Fprintf(errw, "drill: replayed %s: %d events, status %s\n", path, meta.Events, meta.Status())
				if !reflect.DeepEqual(meta.Summary.Summary, sum) {
					fmt.Fprintf(errw, "drill: warning: the summary recorded in %s differs from the one recomputed from its events\n", path)
				}
			}
			if jsonOut && len(hyps) == 0 && meta.Summary != nil && len(meta.Summary.Hypotheses) > 0 {
				// As drill run --json printed it: the hypotheses judged at the
				// run's end, from the journal's summary line.
				return encodeJSON(cmd.OutOrStdout(), judged{Summary: sum, Hypotheses: meta.Summary.Hypotheses})
			}
			vs, verr := judgeReplay(sum, hyps)
			if jsonOut && len(hyps) > 0 {
				if err := encodeJSON(cmd.OutOrStdout(), judged{sum, vs}); err != nil {
					return err
				}
				return verr
			}
			if err := printVerdicts(cmd.OutOrStdout(), vs); err != nil {
				return err
			}
			if err := printSummary(cmd.OutOrStdout(), sum, jsonOut); err != nil {
				return err
			}
			if !jsonOut {
				printFailedCalls(cmd.OutOrStdout(), fold)
			}
			return verr
		},
	}
	fs := cmd.Flags()
	fs.Float64Var(&speed, "speed", 1, "initial replay speed (4: four times real time)")
	fs.BoolVar(&jsonOut, "json", false, "print the recomputed summary as JSON (implies --no-tui)")
	fs.BoolVar(&noTUI, "no-tui", false, "print the recomputed summary instead of showing the dashboard")
	fs.DurationVar(&at, "at", 0, "open the dashboard paused this far into the run (e.g. 45s)")
	fs.StringArrayVar(&expect, "expect", nil, "a hypothesis, `figure op value`, judged live in the dashboard and on the final summary (exit 1 if it fails); repeatable")
	return cmd
}

// judgeReplay judges a replayed run's hypotheses (--expect): the error is
// non-nil (exit 1) when one failed.
func judgeReplay(sum scoring.Summary, hyps []scoring.Expr) ([]scoring.Verdict, error) {
	if len(hyps) == 0 {
		return nil, nil
	}
	figs, err := scoring.FiguresOf(sum)
	if err != nil {
		return nil, err
	}
	vs := scoring.Judge(figs, hyps)
	if failed := scoring.Failed(vs); len(failed) > 0 {
		var lines []string
		for _, v := range failed {
			lines = append(lines, fmt.Sprintf("  %s (measured %s)", v.Expr, scoring.FormatValue(v.Value)))
		}
		return vs, fmt.Errorf("%s/%s: %d of %d hypotheses failed:\n%s", sum.Outage, sum.Policy, len(failed), len(vs), strings.Join(lines, "\n"))
	}
	return vs, nil
}
