package session

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// SweepOptions say how Sweep runs a sweep's drills.
type SweepOptions struct {
	// Virtual runs them in virtual time, in one bubble.
	Virtual bool
	// Record, if set, records every run's journal in this directory
	// (journal.SweepRunPath); existing journals are refused unless Force.
	Record string
	Force  bool
	// Inputs are the files the command reads (its drill file, emails
	// file): a journal recorded over one is refused even with Force.
	Inputs []string
	// Parallel is how many drills run at once (0: all); Repeat how many
	// times each setting runs.
	Parallel, Repeat int
	// Abort are the conditions every real-time run is guarded with; with
	// Virtual they are refused (NoLiveAborts), as run and compare refuse them.
	Abort []scoring.Expr
	// Progress gets the progress of the runs when no dashboard shows them.
	Progress io.Writer
	// Command names the command in the progress lines (default "drill
	// sweep"): drill recommend runs its search through Sweep.
	Command string
	// ShowLive, if set, shows real-time runs as they go (the sweep
	// dashboard), row by row: logs(row) are the logs of the row's runs
	// started so far. Quitting it early stops the runs (interrupted).
	ShowLive func(ctx context.Context, labels []string, logs func(row int) []*event.Log) error
	// ShowRecorded, if set, shows virtual runs once they are done, from
	// their journals (runs[row] index journals); runs not recorded are
	// recorded to a temporary directory for it.
	ShowRecorded func(ctx context.Context, labels []string, runs [][]int, journals []string) error
	// Shard, if not the whole sweep, runs only the shard's share of the
	// drills (sweep.Shard.Has); the others' outcomes stay zero.
	Shard sweep.Shard
}

// Sweep runs every drill of the sweep's rows (cfgs, as plan.Sweep.Plan
// made them) and tabulates them (sweep.Tabulate). The outcomes, in the
// order of cfgs, give the exit codes (Errs). It is RunSweep then
// BuildSweep: a sweep run whole and one merged from its shards are built
// by the same code from the same outcomes.
func Sweep(ctx context.Context, g sweep.Grid, rows plan.SweepRows, cfgs []workload.Config, opts SweepOptions) (*sweep.Result, []vclock.Outcome, error) {
	ran, err := RunSweep(ctx, rows, cfgs, opts)
	if err != nil {
		return nil, nil, err
	}
	res, err := BuildSweep(ctx, g, rows, ran, opts.Repeat, opts.Virtual)
	return res, ran.Outcomes, err
}

// SweepRan is what a sweep's drills gave: each drill's outcome and
// journal ("" if not recorded), in the order of its configurations, and
// when they started. A drill outside the shard run has a zero outcome.
type SweepRan struct {
	Outcomes []vclock.Outcome
	Journals []string
	Start    time.Time
}

// RunSweep runs the sweep's drills, only those of opts.Shard when set.
func RunSweep(ctx context.Context, rows plan.SweepRows, cfgs []workload.Config, opts SweepOptions) (SweepRan, error) {
	if opts.Virtual {
		if err := NoLiveAborts(opts.Abort); err != nil {
			return SweepRan{}, err // as run and compare: nothing follows a virtual run live
		}
		for _, c := range cfgs {
			if err := VirtualUsage(c); err != nil {
				return SweepRan{}, err
			}
		}
	}
	paths := make([]string, len(cfgs))
	if opts.Record != "" {
		if err := journal.PrepareDir(opts.Record); err != nil {
			return SweepRan{}, err
		}
		for i, row := range rows {
			for r, k := range row.Runs {
				if !opts.Shard.Has(k) {
					continue
				}
				paths[k] = journal.SweepRunPath(opts.Record, i, r, row.Config.OutageLabel(), row.Config.Policy.Name)
				if err := journal.CheckRecord(paths[k], opts.Force, opts.Inputs...); err != nil {
					return SweepRan{}, err
				}
			}
		}
	}
	labels := sweep.Labels(rows.Settings())
	ran := SweepRan{Journals: paths, Start: time.Now()}
	var err error
	switch {
	case opts.Virtual:
		ran.Outcomes, err = sweepVirtual(ctx, rows, cfgs, paths, labels, opts)
	case opts.ShowLive != nil:
		ran.Outcomes, err = sweepLive(ctx, rows, cfgs, paths, labels, opts)
	default:
		ran.Outcomes, err = sweepReal(ctx, rows, cfgs, paths, opts, opts.Progress, nil)
	}
	return ran, err
}

// BuildSweep tabulates the drills' outcomes into the sweep's rows
// (sweep.Tabulate): the table, the front and everything printed from them.
// The wall time runs from ran.Start to the end of the tabulation.
func BuildSweep(ctx context.Context, g sweep.Grid, rows plan.SweepRows, ran SweepRan, repeats int, virtual bool) (*sweep.Result, error) {
	outs := ran.Outcomes
	planned := make([]sweep.Planned, len(rows))
	for i, row := range rows {
		planned[i] = sweep.Planned{Setting: row.Setting, Outage: row.Config.OutageLabel(), Policy: row.Config.Policy.Name, Seed: row.Config.Seed}
		for _, k := range row.Runs {
			planned[i].Runs = append(planned[i].Runs, sweep.Ran{Status: outs[k].Status, Summary: outs[k].Summary, Journal: ran.Journals[k], All4ByEmail: outs[k].All4ByEmail})
		}
	}
	// Drills a Ctrl-C stopped are tabulated as far as they ran; a Ctrl-C
	// once every drill has ended stops the tabulation: exit 130, no table.
	tabulate := ctx
	if slices.ContainsFunc(outs, func(o vclock.Outcome) bool { return o.Status == event.StatusInterrupted }) {
		tabulate = context.WithoutCancel(ctx)
	}
	res, err := sweep.Tabulate(tabulate, g, planned, repeats, clockName(virtual), ran.Start)
	if err != nil && ctx.Err() != nil {
		return nil, exit.ErrInterrupted
	}
	return res, err
}

// sweepRecordedConfig is a sweep run's journal header config: the run's
// configuration and which setting and repeat of the sweep it is.
type sweepRecordedConfig struct {
	RecordedConfig
	Sweep sweep.Tag `json:"sweep"`
}

// sweepJobs are the drills as jobs, with the journal header of each run to
// record (none for the others).
func sweepJobs(rows plan.SweepRows, cfgs []workload.Config, paths []string, repeats int) ([]vclock.Job, error) {
	jobs := make([]vclock.Job, len(cfgs))
	now := time.Now()
	for i, row := range rows {
		for r, k := range row.Runs {
			c := cfgs[k]
			// The front rule pairs each setting's first repeat's answers.
			jobs[k] = vclock.Job{Config: c, Journal: paths[k], Answers: r == 0}
			if paths[k] == "" {
				continue
			}
			h, err := journal.NewHeader(sweepRecordedConfig{
				RecordedConfig: RecordedConfig{Config: c, CeilingNS: c.Ceiling()},
				Sweep:          sweep.Tag{Setting: i + 1, Settings: len(rows), Flags: row.Setting.Flags(), Repeat: r + 1, Repeats: repeats, Faults: row.Setting.FaultParams()},
			}, now)
			if err != nil {
				return nil, fmt.Errorf("recording %s: %w", paths[k], err)
			}
			h.Clock = event.ClockReal
			jobs[k].Header = &h
		}
	}
	return jobs, nil
}

// sweepVirtual runs the drills in virtual time (vclock.Drills) and, with
// ShowRecorded, shows them from their journals.
func sweepVirtual(ctx context.Context, rows plan.SweepRows, cfgs []workload.Config, paths, labels []string, opts SweepOptions) ([]vclock.Outcome, error) {
	if opts.ShowRecorded != nil {
		// The dashboard replays the runs: record those not recorded.
		tmp, err := os.MkdirTemp("", "drill-sweep-*")
		if err != nil {
			return nil, fmt.Errorf("recording the virtual runs for the dashboard: %w", err)
		}
		defer os.RemoveAll(tmp)
		paths = append([]string(nil), paths...)
		for i := range paths {
			if paths[i] == "" {
				paths[i] = filepath.Join(tmp, fmt.Sprintf("%04d.jsonl", i+1))
			}
		}
	}
	jobs, err := sweepJobs(rows, cfgs, paths, opts.Repeat)
	if err != nil {
		return nil, err
	}
	command := cmp.Or(opts.Command, "drill sweep")
	outs, err := share(jobs, opts.Shard, func(jobs []vclock.Job, _ []int) ([]vclock.Outcome, error) {
		fmt.Fprintf(opts.Progress, "%s: %d drills in virtual time…\n", command, len(jobs))
		return vclock.Drills(ctx, jobs, opts.Parallel, opts.Progress)
	})
	if err != nil {
		return nil, FromChild(err)
	}
	if opts.ShowRecorded != nil {
		runs := make([][]int, len(rows))
		for i, r := range rows {
			runs[i] = r.Runs
		}
		if err := opts.ShowRecorded(ctx, labels, runs, paths); err != nil {
			return nil, err
		}
	}
	return outs, nil
}

// sweepReal runs the drills in real time (Batch), showing their progress
// on progress and calling onStart (if not nil) with each run as it starts.
func sweepReal(ctx context.Context, rows plan.SweepRows, cfgs []workload.Config, paths []string, opts SweepOptions, progress io.Writer, onStart func(int, *workload.Run)) ([]vclock.Outcome, error) {
	jobs, err := sweepJobs(rows, cfgs, paths, opts.Repeat)
	if err != nil {
		return nil, err
	}
	return share(jobs, opts.Shard, func(jobs []vclock.Job, idx []int) ([]vclock.Outcome, error) {
		started := onStart
		if onStart != nil && idx != nil {
			started = func(i int, r *workload.Run) { onStart(idx[i], r) }
		}
		return Batch(ctx, jobs, BatchOptions{Parallel: opts.Parallel, Abort: opts.Abort, OnStart: started, Progress: progress, Label: "sweep"})
	})
}

// share runs the jobs of shard (all of them for the whole sweep) with run,
// which is given them and their indices in jobs (nil for all), and puts
// their outcomes back in the jobs' places: a job outside the shard has a
// zero outcome.
func share(jobs []vclock.Job, shard sweep.Shard, run func(jobs []vclock.Job, idx []int) ([]vclock.Outcome, error)) ([]vclock.Outcome, error) {
	if shard.Whole() {
		return run(jobs, nil)
	}
	var mine []vclock.Job
	var idx []int
	for k, j := range jobs {
		if shard.Has(k) {
			mine, idx = append(mine, j), append(idx, k)
		}
	}
	outs, err := run(mine, idx)
	if outs == nil {
		return nil, err
	}
	all := make([]vclock.Outcome, len(jobs))
	for i, o := range outs {
		all[idx[i]] = o
	}
	return all, err
}

// sweepLive runs the drills in real time under ShowLive. Quitting it while
// runs go stops them (interrupted, exit 130); once they are all done it
// waits for the user to quit.
func sweepLive(ctx context.Context, rows plan.SweepRows, cfgs []workload.Config, paths, labels []string, opts SweepOptions) ([]vclock.Outcome, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	logs := make([]*event.Log, len(cfgs))
	var outs []vclock.Outcome
	var runErr error
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		outs, runErr = sweepReal(ctx, rows, cfgs, paths, opts, io.Discard, func(i int, r *workload.Run) {
			mu.Lock()
			logs[i] = r.Log()
			mu.Unlock()
		})
	}()
	err := opts.ShowLive(ctx, labels, func(row int) []*event.Log {
		mu.Lock()
		defer mu.Unlock()
		var out []*event.Log
		for _, k := range rows[row].Runs {
			if logs[k] != nil {
				out = append(out, logs[k])
			}
		}
		return out
	})
	cancel() // quitting early stops the runs still going
	<-finished
	if err != nil && !errors.Is(err, context.Canceled) {
		return outs, err
	}
	return outs, runErr
}

// clockName is the clock a sweep's drills ran on, as its table says it.
func clockName(virtual bool) string {
	if virtual {
		return event.ClockVirtual
	}
	return event.ClockReal
}
