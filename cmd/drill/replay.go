package main

import (
	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/present"
)

func newReplayCmd() *cobra.Command {
	var o present.ReplayOptions
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
			o.Path, o.Terminal = args[0], stdoutIsTerminal()
			return present.Replay(cli.EnvOf(cmd), o)
		},
	}
	fs := cmd.Flags()
	fs.Float64Var(&o.Speed, "speed", 1, "initial replay speed (4: four times real time)")
	fs.BoolVar(&o.JSON, "json", false, "print the recomputed summary as JSON (implies --no-tui)")
	fs.BoolVar(&o.NoTUI, "no-tui", false, "print the recomputed summary instead of showing the dashboard")
	fs.DurationVar(&o.At, "at", 0, "open the dashboard paused this far into the run (e.g. 45s)")
	fs.IntVar(&o.Conversation, "conversation", 0, "chat journals: print this conversation's trace (time, model, outcome per call) instead of the summary")
	fs.StringArrayVar(&o.Expect, "expect", nil, "a hypothesis, `figure op value`, judged live in the dashboard and on the final summary (exit 1 if it fails); repeatable")
	return cmd
}
