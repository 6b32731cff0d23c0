// Package session runs drills end to end for drill's commands: it starts
// the engine (wiring the built-in fake model when no endpoint is given),
// records the journal, checks the abort conditions live, writes the
// progress line and returns the run's summary from the fold. Commands parse
// their flags into a workload.Config, call it, and print what it returns
// through internal/plain.
package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/control/api"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/livefold"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// Start starts a drill, wiring the built-in fake model (in-process, seeded
// by the run's seed) when no endpoint is given, and logging the drill's
// prediction in its run_start for the summary's predicted_* keys.
func Start(ctx context.Context, cfg workload.Config) (*workload.Run, error) {
	cfg.Predicted = predict.ForRun(ctx, cfg)
	WireFakeModel(&cfg)
	return workload.Start(ctx, cfg)
}

// WireFakeModel points cfg at the built-in fake model, in-process and
// seeded by the run's seed, when it has no endpoint of its own.
func WireFakeModel(cfg *workload.Config) {
	if cfg.Endpoint.BaseURL == "" && cfg.Endpoint.Transport == nil {
		cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
	}
}

// Summarize folds a finished run's log into its summary.
func Summarize(run *workload.Run) scoring.Summary {
	return fold(run).Summary()
}

func fold(run *workload.Run) *scoring.Fold {
	f := scoring.NewFold()
	f.AddLog(run.Log())
	return f
}

// Options say how Drill runs one drill.
type Options struct {
	// Journal, if set, is the file the run is recorded to; an existing
	// file is refused unless Force is set.
	Journal string
	Force   bool
	// Hypotheses are judged on the summary the journal records; Abort are
	// the conditions checked live (see Guard).
	Hypotheses, Abort []scoring.Expr
	// Show, if set, shows the run (the live dashboard, with its baseline
	// when one is played) until the user quits; quitting early must stop
	// the run. Without it a progress line a second goes to Progress.
	Show     func(ctx context.Context, run *workload.Run, baseline *Baseline) error
	Progress io.Writer
	// Watch, if set, serves the run's metrics and logs the team's alerts
	// into it (--metrics-listen, --alert-listen); the caller closes it.
	Watch *Watch
	// Baseline is the baseline policy played beside the run (--baseline:
	// BaselineNoBreakers, a preset, or "" and BaselineNone for none).
	Baseline string
	// Control, if set, serves the control API (--control-listen) while
	// the run goes on.
	Control *Control
}

// Result is how a drill ended.
type Result struct {
	Run     *workload.Run
	Fold    *scoring.Fold // the whole log folded
	Summary scoring.Summary
	Status  string // completed, interrupted or aborted
	// Guard is the abort condition that tripped, with its value ("" for
	// none).
	Guard string
	// Baseline is the baseline played beside the run; nil for none. The
	// Summary's baseline figures are set from it.
	Baseline *Baseline
}

// recordRun starts the run's journal when opts names one, finished with
// final's summary once the run ends; the channel gets the recording's
// error (nil at once without a journal).
func recordRun(opts Options, run *workload.Run, final func() scoring.Summary) (<-chan error, error) {
	recorded := make(chan error, 1)
	if opts.Journal == "" {
		recorded <- nil
		return recorded, nil
	}
	rec, err := Record(opts.Journal, run)
	if err != nil {
		return nil, err
	}
	go func() {
		status := run.Wait()
		recorded <- Finish(rec, final(), status, opts.Hypotheses)
	}()
	return recorded, nil
}

// watchRun shows the run on the dashboard (opts.Show), returning its
// error, or writes its progress. The dashboard attaches its own cursor
// when it starts, and may go back in the run: the log keeps every event.
// Without it, every reader is attached, and the summary comes from the
// live fold: the log drops what they have all read, so memory does not
// grow with the drill.
func watchRun(ctx context.Context, run *workload.Run, baseline *Baseline, opts Options) error {
	if opts.Show != nil {
		return opts.Show(ctx, run, baseline)
	}
	var cur *event.Cursor
	if opts.Progress != nil {
		cur = run.Log().Cursor()
	}
	run.Log().Release()
	if cur != nil {
		progress(run, cur, opts.Progress)
	}
	return nil
}

// Drill runs one drill to its end: it starts the run, records it, guards
// it with the abort conditions, shows it (or writes its progress), and
// returns the summary from the fold. The journal gets its summary line as
// soon as the run ends, even while the dashboard stays open on the final
// state. A drill that cannot start is a usage error (exit 2).
func Drill(ctx context.Context, cfg workload.Config, opts Options) (Result, error) {
	if err := journal.CheckRecord(opts.Journal, opts.Force); err != nil {
		return Result{}, err
	}
	ctlLn, err := opts.Control.open()
	if err != nil {
		return Result{}, err
	}
	run, err := Start(ctx, cfg)
	if err != nil {
		closeListener(ctlLn)
		return Result{}, exit.UsageError(err)
	}
	baseline, err := StartBaseline(ctx, cfg, opts.Baseline)
	if err != nil {
		closeListener(ctlLn)
		run.Stop()
		<-run.Done()
		return Result{}, exit.UsageError(err)
	}
	defer baseline.Close() // its figures are in the summary by then
	// Every reader attaches its cursor here, before the log may release
	// what they have all read (below).
	opts.Watch.Follow(ctx, run.Log(), cfg.OutageLabel(), cfg.Policy.Name, nil)
	live := livefold.Follow(run.Log())
	stopControl := opts.Control.serve(ctlLn, api.Options{Target: run, Name: "run", Windows: cfg.Windows(), Start: run.Log().Start(),
		Figures: runFigures(live)}, controlLog(opts), "drill run")
	defer stopControl()
	// The dashboard can start and end outages by hand: the baseline
	// follows the log and plays them too. It ends with the log.
	var follow sync.WaitGroup
	defer follow.Wait()
	if baseline != nil && opts.Show != nil {
		cur := run.Log().Cursor()
		follow.Go(func() { baseline.Follow(ctx, cur) })
	}
	aborted := StartGuard(run, opts.Abort, GuardInterval)
	// final is the run's summary with its baseline beside it, folded once
	// for both the journal's summary line and the Result. The baseline is
	// recorded: a replay cannot play it again from this log.
	final := sync.OnceValue(func() scoring.Summary {
		sum := live.Wait().Summary()
		follow.Wait() // the baseline has seen every change by hand the log holds
		sum.Baseline = baseline.Final(ctx, sum)
		return sum
	})
	recorded, err := recordRun(opts, run, final)
	if err != nil {
		run.Stop()
		<-run.Done()
		return Result{}, err
	}
	if err := watchRun(ctx, run, baseline, opts); err != nil {
		run.Stop()
		return Result{}, errors.Join(fmt.Errorf("dashboard: %w", err), <-recorded)
	}
	status := run.Wait()
	if err := <-recorded; err != nil {
		return Result{}, err
	}
	sum := final() // the journal's goroutine, if any, is done with it: recorded was received
	return Result{Run: run, Fold: live.Wait(), Summary: sum, Status: status, Guard: <-aborted, Baseline: baseline}, nil
}
