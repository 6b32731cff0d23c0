package main

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/sweeprun"
	"github.com/drill-dev/drill/tui"
)

func newSweepCmd() *cobra.Command {
	sf := &sweeprun.Flags{}
	cmd := &cobra.Command{
		Use:   "sweep",
		Short: "Run every combination of settings, concurrently, and tabulate the trade-off",
		Long: `Run a grid of drills: every flag that takes one value takes a comma list or a
range (0..2 counts up by one; 1s..5s..1s and 0.1..0.5..0.1 need a step), and
every combination runs concurrently, on the same emails and seed, as drill
compare does. --repeat N runs each setting N times with latency seeds seed,
seed+1, ...; the table gives each figure's median over the repeats and its
spread (smallest–largest). Rows marked "dominated" are beaten by another row
on all three trade-off figures: p95 wait during the outage, all-4-right and
calls to the broken model. A drill file's sweep: section gives axes too;
flags given override the file's axes and settings.

--fault KEY=V1,V2 sweeps a fault parameter; --trip is a list already, so
each --trip occurrence is one value (--trip count --trip count,in-flight).
Bool flags take true,false (--rules=true,false).`,
		Example: `  drill sweep --clock virtual --primary-timeout 1s,2s,3s,5s --primary-retries 0..2 --trip-failures 3,5
  drill sweep --primary-timeout 1s..5s..1s --outages hang --repeat 3 --sort p95_wait_outage_s --top 5
  drill sweep --policies breaker,fail-fast --cooldown 5s,10s --dry-run
  drill sweep -f examples/sweep.yaml --clock virtual --record runs/ && drill report runs/*.jsonl`,
		Args: cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return sweeprun.Run(sweepEnv(cmd), sf) },
	}
	sf.Register(cmd.Flags())
	cmd.AddCommand(newSweepMergeCmd())
	return cmd
}

func newSweepMergeCmd() *cobra.Command {
	mf := &sweeprun.MergeFlags{}
	cmd := &cobra.Command{
		Use:   "merge SHARD...",
		Short: "Merge the shard files of a sweep (or drill recommend) into its table, front and recommendation",
		Long: `Merge the N shard files that drill sweep --shard I/N -o FILE (or drill recommend
--shard) wrote into what the sweep run whole prints: the same table, front
and --json, or the same recommendation. Every shard 1..N must be given once,
all with the same fingerprint (the SHA-256 of the sweep's definition); the
sweep is planned again from the command line the shards recorded, so a drill
file or emails file it names must be there, unchanged. Refusals exit 2.
docs/sweeps.md.`,
		Example: `  drill sweep --clock virtual --primary-timeout 1s..5s..1s --shard 1/4 -o shard-1.json   # and 2/4, 3/4, 4/4
  drill sweep merge shard-*.json
  drill sweep merge shard-*.json --json -o sweep.json`,
		Args: cli.UsageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error { return sweeprun.Merge(sweepEnv(cmd), mf, args) },
	}
	mf.Register(cmd.Flags())
	return cmd
}

// sweepEnv is what drill sweep, sweep merge and recommend take of their
// command, with the sweep dashboards for a terminal.
func sweepEnv(cmd *cobra.Command) sweeprun.Env {
	return sweeprun.Env{Env: cli.EnvOf(cmd), Terminal: stdoutIsTerminal(),
		ShowRecorded: func(ctx context.Context, labels []string, runs [][]int, journals []string) error {
			return tui.SweepRecorded(ctx, labels, runs, journals, tui.Options{Output: os.Stdout})
		},
		ShowLive: func(ctx context.Context, labels []string, logs func(int) []*event.Log) error {
			return tui.Sweep(ctx, tui.SweepSource{Labels: labels, Logs: logs}, tui.Options{Output: os.Stdout})
		},
	}
}
