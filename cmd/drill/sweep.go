package main

import (
	"context"
	"errors"
	"io"
	"os"
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
	"github.com/drill-dev/drill/workload"
)

// sweepFlags are drill sweep's flags: the sweep (plan.Sweep) and how it
// is shown and recorded.
type sweepFlags struct {
	plan.Sweep
	dryRun, json, noTUI bool
	record              string
	force               bool
	clock               clockValue
	tables              tableFormat
	shard               shardFlags
}

func newSweepCmd() *cobra.Command { return sweepCommand(&sweepFlags{}) }

// sweepCommand is drill sweep with its flags parsed into sf: drill sweep
// merge parses a shard's command line with it.
func sweepCommand(sf *sweepFlags) *cobra.Command {
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
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return sf.run(cmd) },
	}
	fs := cmd.Flags()
	fs.BoolVar(&sf.dryRun, "dry-run", false, "print the grid and its size, check every setting, run nothing")
	fs.BoolVar(&sf.json, "json", false, "print the rows as JSON")
	registerTableFormat(fs, &sf.tables)
	fs.StringVar(&sf.record, "record", "", "record every run's journal in this directory (then: drill report DIR/*.jsonl)")
	fs.BoolVar(&sf.force, "force", false, "let --record and -o overwrite journals or a file already there")
	fs.BoolVar(&sf.noTUI, "no-tui", false, "no sweep dashboard: progress on stderr, then the table (the default when stdout is no terminal)")
	registerClock(fs, &sf.clock, event.ClockReal)
	sf.Register(fs)
	sf.shard.register(fs, "the table (or --json) to write instead of printing it; with --shard, the shard file to write")
	cmd.AddCommand(newSweepMergeCmd())
	return cmd
}

// checkSweepFile checks the drill file at path as drill sweep -f does
// before it runs anything (its sweep: section's axes and values, every
// setting's drills built as drill compare builds them), for drill
// validate: a file validate accepts, sweep -f does not refuse.
func checkSweepFile(path string) error {
	sf := &sweepFlags{}
	fs := pflag.NewFlagSet("sweep", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	sf.Register(fs)
	if err := fs.Set("file", path); err != nil {
		return exit.UsageError(err)
	}
	if _, _, err := sf.Validate(); err != nil {
		return err
	}
	isChat, err := sf.Chat()
	if err != nil {
		return err
	}
	if isChat {
		_, _, err := sf.planChat()
		return err
	}
	_, err = sf.plan(func(string) {})
	return err
}

// sweepPlan is a triage sweep ready to run: its grid, its rows, the
// drills and the drill file's abort conditions.
type sweepPlan struct {
	grid  sweep.Grid
	rows  plan.SweepRows
	cfgs  []workload.Config
	abort []scoring.Expr
}

// plan reads the drill file, if any, and builds the sweep's grid and
// drills, checking every setting; warn is told what the user should know.
func (sf *sweepFlags) plan(warn func(string)) (sweepPlan, error) {
	var file *drillfile.File
	if sf.File != "" {
		var err error
		if file, err = drillfile.Load(sf.File); err != nil {
			return sweepPlan{}, exit.UsageError(err)
		}
	}
	g, err := sf.Grid(file)
	if err != nil {
		return sweepPlan{}, err
	}
	rows, cfgs, abort, err := sf.Plan(g, warn)
	if err != nil {
		return sweepPlan{}, err
	}
	return sweepPlan{grid: g, rows: rows, cfgs: cfgs, abort: abort}, nil
}

// run is drill sweep.
func (sf *sweepFlags) run(cmd *cobra.Command) error {
	sortFig, desc, err := sf.Validate()
	if err != nil {
		return err
	}
	if isChat, err := sf.Chat(); err != nil {
		return err
	} else if isChat {
		if sf.shard.output != "" || sf.shard.shard != "" {
			return exit.Usagef("--shard and -o are not supported with --workload chat yet")
		}
		return sf.runChat(cmd, sortFig)
	}
	if err := sf.shard.check(cmd, sf.force); err != nil {
		return err
	}
	if sf.shard.shard != "" {
		if sf.dryRun {
			return exit.Usagef("--shard runs its share of the drills: leave out --dry-run (drill sweep --dry-run lists the whole grid)")
		}
		return runSweepShard(cmd, sf)
	}
	var warned []string
	p, err := sf.plan(func(w string) {
		if !slices.Contains(warned, w) {
			warned = append(warned, w)
			warn(cmd, []string{w})
		}
	})
	if err != nil {
		return err
	}
	g, rows, cfgs, abort := p.grid, p.rows, p.cfgs, p.abort
	if sf.dryRun {
		if sf.clock.virtual() {
			for _, c := range cfgs {
				if err := session.VirtualUsage(c); err != nil {
					return err
				}
			}
		}
		d := sweep.PlanDry(g, rows.Settings(), sf.Repeat)
		if sf.json {
			return encodeJSON(cmd.OutOrStdout(), d)
		}
		return plain.SweepDryRun(cmd.OutOrStdout(), d)
	}
	opts := session.SweepOptions{Virtual: sf.clock.virtual(), Record: sf.record, Force: sf.force, Inputs: inputsOf(cmd), Parallel: sf.MaxParallel,
		Repeat: sf.Repeat, Abort: abort, Progress: cmd.ErrOrStderr()}
	if !sf.noTUI && !sf.json && stdoutIsTerminal() {
		opts.ShowRecorded = func(ctx context.Context, labels []string, runs [][]int, journals []string) error {
			return tui.SweepRecorded(ctx, labels, runs, journals, tui.Options{Output: os.Stdout})
		}
		opts.ShowLive = func(ctx context.Context, labels []string, logs func(int) []*event.Log) error {
			return tui.Sweep(ctx, tui.SweepSource{Labels: labels, Logs: logs}, tui.Options{Output: os.Stdout})
		}
	}
	res, outs, err := session.Sweep(cmd.Context(), g, rows, cfgs, opts)
	if err != nil {
		return err
	}
	// Exit codes as for compare: interrupted (130), aborted (3), failed (1).
	return firstErr(sf.print(cmd, res, sortFig, desc), exit.Worst(session.Errs(cfgs, outs)))
}

// print prints the sweep's result as drill sweep does, sorted and cut to
// --top, to -o if given, else to stdout: a sweep run whole and one merged
// from its shards print through it.
func (sf *sweepFlags) print(cmd *cobra.Command, res *sweep.Result, sortFig string, desc bool) error {
	if sortFig != "" {
		res.Sort(sortFig, desc)
	}
	res.Top(sf.Top)
	return sf.shard.write(cmd, func(out io.Writer) error {
		if sf.json {
			return encodeJSON(out, res)
		}
		if w := sf.tables.width(out); w >= 0 {
			return plain.SweepText(out, res, w)
		}
		return plain.SweepTable(out, res)
	})
}

// runChat is drill sweep --workload chat: every setting of the chat
// policy's flags given as axes, run at once, tabulated with the chat
// figures as columns.
func (sf *sweepFlags) runChat(cmd *cobra.Command, sortFig string) error {
	if sortFig != "" {
		return exit.Usagef("--sort is not supported with --workload chat yet: the rows keep the grid's order")
	}
	g, rows, err := sf.planChat()
	if err != nil {
		return err
	}
	if sf.dryRun {
		settings := make([]sweep.Setting, len(rows))
		for i, r := range rows {
			settings[i] = r.Setting
		}
		d := sweep.PlanDry(g, settings, sf.Repeat)
		if sf.json {
			return encodeJSON(cmd.OutOrStdout(), d)
		}
		return plain.SweepDryRun(cmd.OutOrStdout(), d)
	}
	res, outs, err := session.ChatSweep(cmd.Context(), g, rows, sf.clock.virtual(), sf.record, sf.force, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	if sf.Top > 0 && sf.Top < len(res.Rows) {
		res.Rows = res.Rows[:sf.Top]
	}
	if sf.json {
		err = encodeJSON(cmd.OutOrStdout(), res)
	} else {
		err = res.WriteTable(cmd.OutOrStdout())
	}
	var errs []error
	for _, o := range outs {
		switch {
		case o.Status == event.StatusInterrupted:
			errs = append(errs, exit.ErrInterrupted)
		case o.Error != "":
			errs = append(errs, errors.New(o.Error))
		}
	}
	return firstErr(err, exit.Worst(errs))
}

// planChat builds a chat sweep's grid and its settings' drills, checking
// every setting.
func (sf *sweepFlags) planChat() (sweep.Grid, []plan.ChatSweepRow, error) {
	g, err := sf.ChatGrid()
	if err != nil {
		return sweep.Grid{}, nil, err
	}
	rows, err := sf.PlanChat(g)
	if err != nil {
		return sweep.Grid{}, nil, err
	}
	return g, rows, nil
}
