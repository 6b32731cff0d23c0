// Package drills runs many drills at once in real time, each with its own
// fake model and clients (as drill compare and drill sweep do), recording
// those with a journal and guarding them with a drill file's abort
// conditions. Its outcomes are the virtual clock's (vclock.Outcome), so a
// sweep reads both clocks' runs the same way.
package drills

import (
	"context"
	"fmt"
	"sync"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// Options say how to run the drills.
type Options struct {
	// Parallel is how many drills run at once; 0 runs them all at once.
	Parallel int
	// Abort are the abort conditions every run is guarded with.
	Abort []scoring.Expr
	// Start starts one drill (drill's own start: the prediction logged,
	// the fake model when no endpoint is set). Required.
	Start func(context.Context, workload.Config) (*workload.Run, error)
	// OnStart, if set, is called with each run as it starts, from the
	// run's own goroutine.
	OnStart func(i int, r *workload.Run)
}

// Run runs the jobs in real time, at most opts.Parallel at once, and
// returns their outcomes in the jobs' order. When ctx ends the runs in
// flight stop as on Ctrl-C and those not started are not run (status
// interrupted, empty summary).
func Run(ctx context.Context, jobs []vclock.Job, opts Options) []vclock.Outcome {
	n := opts.Parallel
	if n <= 0 || n > len(jobs) {
		n = len(jobs)
	}
	outs := make([]vclock.Outcome, len(jobs))
	slots := make(chan struct{}, max(n, 1))
	var wg sync.WaitGroup
	for i, job := range jobs {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			outs[i] = vclock.Outcome{Status: event.StatusInterrupted}
			continue
		}
		wg.Go(func() {
			defer func() { <-slots }()
			outs[i] = runOne(ctx, job, opts, func(r *workload.Run) {
				if opts.OnStart != nil {
					opts.OnStart(i, r)
				}
			})
		})
	}
	wg.Wait()
	return outs
}

// runOne runs one drill to its end, recorded when the job names a journal.
func runOne(ctx context.Context, job vclock.Job, opts Options, onStart func(*workload.Run)) vclock.Outcome {
	r, err := opts.Start(ctx, job.Config)
	if err != nil {
		return vclock.Outcome{Status: event.StatusFailed, Error: err.Error()}
	}
	onStart(r)
	var rec *journal.Writer
	if job.Journal != "" {
		h := *job.Header
		h.Start = r.Log().Start()
		rec, err = journal.Create(job.Journal, h, r.Log(), journal.Options{Secrets: job.Config.APIKeys()})
		if err != nil {
			r.Stop()
			<-r.Done()
			return vclock.Outcome{Status: event.StatusFailed, Error: fmt.Sprintf("--record: %v", err)}
		}
	}
	// The guard aborts through the run's log: the fold reads the reason.
	go session.Guard(r, opts.Abort, session.GuardInterval)
	status := r.Wait()
	fold := scoring.NewFold()
	fold.AddLog(r.Log())
	sum := fold.Summary()
	o := vclock.Outcome{Summary: sum, Status: status, Failed: fold.FailedCalls(), Ended: fold.Ended()}
	if rec != nil {
		if err := rec.Finish(sum, status); err != nil {
			o.Error = fmt.Sprintf("recording the journal: %v", err)
		}
	}
	return o
}
