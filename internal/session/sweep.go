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
}

// Sweep runs every drill of the sweep's rows (cfgs, as plan.Sweep.Plan
// made them) and tabulates them (sweep.Tabulate). The outcomes, in the
// order of cfgs, give the exit codes (Errs).
func Sweep(ctx context.Context, g sweep.Grid, rows plan.SweepRows, cfgs []workload.Config, opts SweepOptions) (*sweep.Result, []vclock.Outcome, error) {
	if opts.Virtual {
		if err := NoLiveAborts(opts.Abort); err != nil {
			return nil, nil, err // as run and compare: nothing follows a virtual run live
		}
		for _, c := range cfgs {
			if err := VirtualUsage(c); err != nil {
				return nil, nil, err
			}
		}
	}
	paths := make([]string, len(cfgs))
	if opts.Record != "" {
		if err := journal.PrepareDir(opts.Record); err != nil {
			return nil, nil, err
		}
		for i, row := range rows {
			for r, k := range row.Runs {
				paths[k] = journal.SweepRunPath(opts.Record, i, r, row.Config.OutageLabel(), row.Config.Policy.Name)
				if err := journal.CheckRecord(paths[k], opts.Force, opts.Inputs...); err != nil {
					return nil, nil, err
				}
			}
		}
	}
	labels := sweep.Labels(rows.Settings())
	start := time.Now()
	var outs []vclock.Outcome
	var err error
	switch {
	case opts.Virtual:
		outs, err = sweepVirtual(ctx, rows, cfgs, paths, labels, opts)
	case opts.ShowLive != nil:
		outs, err = sweepLive(ctx, rows, cfgs, paths, labels, opts)
	default:
		outs, err = sweepReal(ctx, rows, cfgs, paths, opts, opts.Progress, nil)
	}
	if err != nil {
		return nil, nil, err
	}
	planned := make([]sweep.Planned, len(rows))
	for i, row := range rows {
		planned[i] = sweep.Planned{Setting: row.Setting, Outage: row.Config.OutageLabel(), Policy: row.Config.Policy.Name, Seed: row.Config.Seed}
		for _, k := range row.Runs {
			planned[i].Runs = append(planned[i].Runs, sweep.Ran{Status: outs[k].Status, Summary: outs[k].Summary, Journal: paths[k], All4ByEmail: outs[k].All4ByEmail})
		}
	}
	clock := clockName(opts.Virtual)
	// Drills a Ctrl-C stopped are tabulated as far as they ran; a Ctrl-C
	// once every drill has ended stops the tabulation: exit 130, no table.
	tabulate := ctx
	if slices.ContainsFunc(outs, func(o vclock.Outcome) bool { return o.Status == event.StatusInterrupted }) {
		tabulate = context.WithoutCancel(ctx)
	}
	res, err := sweep.Tabulate(tabulate, g, planned, opts.Repeat, clock, start)
	if err != nil && ctx.Err() != nil {
		return nil, nil, exit.ErrInterrupted
	}
	return res, outs, err
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
	fmt.Fprintf(opts.Progress, "%s: %d drills in virtual time…\n", command, len(jobs))
	outs, err := vclock.Drills(ctx, jobs, opts.Parallel, opts.Progress)
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
	return Batch(ctx, jobs, BatchOptions{Parallel: opts.Parallel, Abort: opts.Abort, OnStart: onStart, Progress: progress, Label: "sweep"})
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
