package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/journal"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
)

func newReplayCmd() *cobra.Command {
	var (
		speed          float64
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
interrupted.`,
		Example: `  drill replay r.jsonl
  drill replay r.jsonl --speed 4
  drill replay r.jsonl --no-tui --json`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if speed <= 0 {
				return usagef("--speed must be positive, got %v", speed)
			}
			path := args[0]
			if st, err := os.Stat(path); err == nil && st.IsDir() {
				return usagef("replay takes one journal file; %s is a directory (drill report %s reads every journal in it)", path, path)
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
				err = tui.Replay(ctx, j.Events, tui.ReplayOptions{Speed: speed})
				if err != nil && ctx.Err() != nil {
					return errInterrupted // Ctrl-C or SIGTERM: exit 130
				}
				return err
			}
			var (
				sum  scoring.Summary
				meta journal.Meta
			)
			err := interruptible(ctx, func(ctx context.Context) (err error) {
				sum, meta, err = journal.SummarizeContext(ctx, path)
				return err
			})
			if err != nil {
				return readError(ctx, err)
			}
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
			if jsonOut && meta.Summary != nil && len(meta.Summary.Hypotheses) > 0 {
				// As drill run --json printed it: the hypotheses judged at the
				// run's end, from the journal's summary line.
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(judged{Summary: sum, Hypotheses: meta.Summary.Hypotheses})
			}
			return printSummary(cmd.OutOrStdout(), sum, jsonOut)
		},
	}
	fs := cmd.Flags()
	fs.Float64Var(&speed, "speed", 1, "initial replay speed (4: four times real time)")
	fs.BoolVar(&jsonOut, "json", false, "print the recomputed summary as JSON (implies --no-tui)")
	fs.BoolVar(&noTUI, "no-tui", false, "print the recomputed summary instead of showing the dashboard")
	return cmd
}
