package sweeprun

import (
	"errors"
	"io"
	"slices"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

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
func (sf *Flags) plan(warn func(string)) (sweepPlan, error) {
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

// Run is drill sweep with its flags parsed into sf.
func Run(env Env, sf *Flags) error {
	sortFig, desc, err := sf.Validate()
	if err != nil {
		return err
	}
	if isChat, err := sf.Chat(); err != nil {
		return err
	} else if isChat {
		if sf.shard.Output != "" || sf.shard.Shard != "" {
			return exit.Usagef("--shard and -o are not supported with --workload chat yet")
		}
		return sf.runChat(env, sortFig)
	}
	if err := sf.shard.Check(cli.InputsOf(env.Flags), sf.force); err != nil {
		return err
	}
	if sf.shard.Shard != "" {
		if sf.dryRun {
			return exit.Usagef("--shard runs its share of the drills: leave out --dry-run (drill sweep --dry-run lists the whole grid)")
		}
		return runShard(env, sf)
	}
	var warned []string
	p, err := sf.plan(func(w string) {
		if !slices.Contains(warned, w) {
			warned = append(warned, w)
			cli.Warn(env.Err, []string{w})
		}
	})
	if err != nil {
		return err
	}
	if sf.dryRun {
		return sf.dryRunTriage(env, p)
	}
	opts := session.SweepOptions{Virtual: sf.clock.Virtual(), Record: sf.record, Force: sf.force, Inputs: cli.InputsOf(env.Flags), Parallel: sf.MaxParallel,
		Repeat: sf.Repeat, Abort: p.abort, Progress: env.Err}
	if !sf.noTUI && !sf.json && env.Terminal {
		opts.ShowRecorded, opts.ShowLive = env.ShowRecorded, env.ShowLive
	}
	res, outs, err := session.Sweep(env.Ctx, p.grid, p.rows, p.cfgs, opts)
	if err != nil {
		return err
	}
	// Exit codes as for compare: interrupted (130), aborted (3), failed (1).
	return cli.FirstErr(sf.print(env.Out, res, sortFig, desc), exit.Worst(session.Errs(p.cfgs, outs)))
}

// dryRunTriage is drill sweep --dry-run: the grid and its size, every
// setting checked (on the virtual clock, that it can run there), nothing
// run.
func (sf *Flags) dryRunTriage(env Env, p sweepPlan) error {
	if sf.clock.Virtual() {
		for _, c := range p.cfgs {
			if err := session.VirtualUsage(c); err != nil {
				return err
			}
		}
	}
	return sf.printDry(env.Out, sweep.PlanDry(p.grid, p.rows.Settings(), sf.Repeat))
}

// printDry prints a dry run's plan, as JSON with --json.
func (sf *Flags) printDry(out io.Writer, d sweep.DryRun) error {
	if sf.json {
		return plain.JSON(out, d)
	}
	return plain.SweepDryRun(out, d)
}

// print prints the sweep's result as drill sweep does, sorted and cut to
// --top, to -o if given, else to stdout: a sweep run whole and one merged
// from its shards print through it.
func (sf *Flags) print(stdout io.Writer, res *sweep.Result, sortFig string, desc bool) error {
	if sortFig != "" {
		res.Sort(sortFig, desc)
	}
	res.Top(sf.Top)
	return sf.shard.Write(stdout, func(out io.Writer) error {
		if sf.json {
			return plain.JSON(out, res)
		}
		if w := sf.tables.Width(out); w >= 0 {
			return plain.SweepText(out, res, w)
		}
		return plain.SweepTable(out, res)
	})
}

// runChat is drill sweep --workload chat: every setting of the chat
// policy's flags given as axes, run at once, tabulated with the chat
// figures as columns.
func (sf *Flags) runChat(env Env, sortFig string) error {
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
		return sf.printDry(env.Out, sweep.PlanDry(g, settings, sf.Repeat))
	}
	res, outs, err := session.ChatSweep(env.Ctx, g, rows, sf.clock.Virtual(), sf.record, sf.force, env.Err)
	if err != nil {
		return err
	}
	if sf.Top > 0 && sf.Top < len(res.Rows) {
		res.Rows = res.Rows[:sf.Top]
	}
	if sf.json {
		err = plain.JSON(env.Out, res)
	} else {
		err = res.WriteTable(env.Out)
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
	return cli.FirstErr(err, exit.Worst(errs))
}

// planChat builds a chat sweep's grid and its settings' drills, checking
// every setting.
func (sf *Flags) planChat() (sweep.Grid, []plan.ChatSweepRow, error) {
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
