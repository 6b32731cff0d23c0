package session

import (
	"context"
	"io"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// CompareOptions say how Compare runs a set of drills.
type CompareOptions struct {
	// Virtual runs them in virtual time (Virtual), in one bubble.
	Virtual bool
	// RecordDir, if set, records each run as a journal there, named after
	// its outage and policy (journal.RunPath); existing journals are
	// refused unless Force is set (on either clock).
	RecordDir string
	Force     bool
	// Inputs are the files the command reads (its drill file, emails
	// file): a journal recorded over one is refused even with Force.
	Inputs []string
	// Hypotheses are judged on each journal's summary line; Abort are the
	// conditions checked live (real clock only).
	Hypotheses, Abort []scoring.Expr
	// Progress gets the progress of the runs (StartProgress).
	Progress io.Writer
	// Watch, if set, serves each run's metrics and logs the team's alerts
	// into the runs they name (real clock only); the caller closes it.
	Watch *Watch
}

// Compare runs every drill of cfgs at once, each with its own fake model
// and clients, and returns their outcomes in the order of cfgs. On the real
// clock a drill that cannot start (or be recorded) stops them all and is a
// usage error (exit 2).
func Compare(ctx context.Context, cfgs []workload.Config, opts CompareOptions) ([]vclock.Outcome, error) {
	if opts.Virtual {
		if err := NoLiveAborts(opts.Abort); err != nil {
			return nil, err
		}
	}
	paths := make([]string, len(cfgs))
	if opts.RecordDir != "" {
		if err := journal.PrepareDir(opts.RecordDir); err != nil {
			return nil, err
		}
		for i, cfg := range cfgs {
			paths[i] = journal.RunPath(opts.RecordDir, i, cfg.OutageLabel(), cfg.Policy.Name)
			if err := journal.CheckRecord(paths[i], opts.Force, opts.Inputs...); err != nil {
				return nil, err
			}
		}
	}
	if opts.Virtual {
		return Virtual(ctx, cfgs, opts.Hypotheses, paths, opts.Progress)
	}
	if len(cfgs) == 0 {
		return nil, exit.Usagef("nothing to compare: --outages and --policies must each name at least one")
	}
	jobs := make([]vclock.Job, len(cfgs))
	for i, cfg := range cfgs {
		jobs[i] = vclock.Job{Config: cfg, Journal: paths[i]}
	}
	return Batch(ctx, jobs, BatchOptions{Hypotheses: opts.Hypotheses, Abort: opts.Abort,
		Progress: opts.Progress, Label: "compare", FailFast: true, OnStart: func(_ int, r *workload.Run) {
			opts.Watch.Follow(ctx, r.Log(), r.Config().OutageLabel(), r.Config().Policy.Name, nil)
		}})
}

// NoLiveAborts refuses abort conditions where nothing follows the run live
// (a virtual-clock run plays in a child process).
func NoLiveAborts(abort []scoring.Expr) error {
	if len(abort) > 0 {
		return exit.Usagef("abort conditions are checked live against the running drill, which --clock virtual does not allow: use --clock real")
	}
	return nil
}
