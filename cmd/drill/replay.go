package main

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"time"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
)

func newReplayCmd() *cobra.Command {
	var (
		speed          float64
		at             time.Duration
		expect         []string
		jsonOut, noTUI bool
		conversation   int
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
		Args: cli.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := edge.Factor(speed, false); err != nil {
				return exit.Usagef("--speed %v", err)
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
			if isChat, err := chatJournal(cmd, path); err != nil {
				return err
			} else if isChat {
				return replayChat(cmd, path, conversation, expect, jsonOut, !noTUI && !jsonOut && stdoutIsTerminal())
			} else if conversation != 0 {
				return exit.Usagef("--conversation N traces a conversation of a chat journal; %s is a triage run's", path)
			}
			if !noTUI && !jsonOut && stdoutIsTerminal() {
				return replayDashboard(cmd, path, tui.ReplayOptions{Speed: speed, At: at, Hypotheses: hyps})
			}
			return replaySummary(cmd, path, hyps, jsonOut)
		},
	}
	fs := cmd.Flags()
	fs.Float64Var(&speed, "speed", 1, "initial replay speed (4: four times real time)")
	fs.BoolVar(&jsonOut, "json", false, "print the recomputed summary as JSON (implies --no-tui)")
	fs.BoolVar(&noTUI, "no-tui", false, "print the recomputed summary instead of showing the dashboard")
	fs.DurationVar(&at, "at", 0, "open the dashboard paused this far into the run (e.g. 45s)")
	fs.IntVar(&conversation, "conversation", 0, "chat journals: print this conversation's trace (time, model, outcome per call) instead of the summary")
	fs.StringArrayVar(&expect, "expect", nil, "a hypothesis, `figure op value`, judged live in the dashboard and on the final summary (exit 1 if it fails); repeatable")
	return cmd
}

// replayDashboard shows the journal in the replay dashboard and, after q,
// prints its summary as drill run does.
func replayDashboard(cmd *cobra.Command, path string, opts tui.ReplayOptions) error {
	ctx := cmd.Context()
	var j *journal.Journal
	err := cli.Interruptible(ctx, func(ctx context.Context) (err error) {
		j, err = journal.ReadFileContext(ctx, path)
		return err
	})
	if err != nil {
		return journal.ReadError(ctx, err)
	}
	opts.Baseline = report.RecordedBaseline(j.Meta) // shown as recorded: a replay cannot play it again
	if err := tui.Replay(ctx, j.Events, opts); err != nil {
		if ctx.Err() != nil {
			return exit.ErrInterrupted // Ctrl-C or SIGTERM: exit 130
		}
		return err
	}
	fold := scoring.NewFold()
	fold.AddAll(j.Events)
	sum := fold.Summary()
	sum.Baseline = opts.Baseline // as replay --no-tui prints it
	vs, verr := session.Judge(sum, opts.Hypotheses)
	return cli.FirstErr(printRun(cmd, sum, vs, fold.FailedCalls()), verr)
}

// replaySummary prints the summary recomputed from the journal's events,
// as a table or as JSON, with the hypotheses judged on it.
func replaySummary(cmd *cobra.Command, path string, hyps []scoring.Expr, jsonOut bool) error {
	ctx := cmd.Context()
	fold := scoring.NewFold()
	var meta journal.Meta
	err := cli.Interruptible(ctx, func(ctx context.Context) (err error) {
		meta, err = journal.ScanContext(ctx, path, func(e event.Event) error {
			fold.Add(e)
			return nil
		})
		return err
	})
	if err != nil {
		return journal.ReadError(ctx, err) // interrupted, the scan may still be folding: leave the fold alone
	}
	sum := fold.Summary()
	sum.Baseline = report.RecordedBaseline(meta)
	differs := meta.Summary != nil && !reflect.DeepEqual(meta.Summary.Summary, sum)
	for _, l := range plain.Replayed(path, meta, differs) {
		fmt.Fprintln(cmd.ErrOrStderr(), "drill:", l)
	}
	out := cmd.OutOrStdout()
	if jsonOut && len(hyps) == 0 && meta.Summary != nil && len(meta.Summary.Hypotheses) > 0 {
		// As drill run --json printed it: the hypotheses the run recorded,
		// judged again on the summary recomputed from the events — a
		// journal's own "pass" is not evidence (it may be forged or stale).
		vs, err := session.Rejudge(sum, meta.Summary.Hypotheses)
		if err != nil {
			return exit.UsageError(fmt.Errorf("%s: %w", path, err))
		}
		return plain.JSON(out, judged{Summary: sum, Hypotheses: vs})
	}
	vs, verr := session.Judge(sum, hyps)
	switch {
	case jsonOut && len(hyps) > 0:
		return cli.FirstErr(plain.JSON(out, judged{sum, vs}), verr)
	case jsonOut:
		return cli.FirstErr(plain.JSON(out, sum), verr)
	}
	return cli.FirstErr(printRun(cmd, sum, vs, fold.FailedCalls()), verr)
}
