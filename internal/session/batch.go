package session

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// BatchOptions say how Batch runs many drills at once.
type BatchOptions struct {
	// Parallel is how many drills run at once; 0 as many as memory allows
	// (vclock.DefaultParallel).
	Parallel int
	// Hypotheses are judged on each journal's summary line; Abort are the
	// conditions every run is guarded with (Guard).
	Hypotheses, Abort []scoring.Expr
	// OnStart, if set, is called with each run as it starts, from the
	// run's own goroutine.
	OnStart func(i int, r *workload.Run)
	// Progress, if set, gets the emails done across the runs under Label
	// (StartProgress) until they end.
	Progress io.Writer
	Label    string
	// FailFast stops the batch when a run cannot start or be recorded: the
	// runs in flight stop as on Ctrl-C, those not started are not run, and
	// Batch returns that error as a usage error (exit 2). Without it such a
	// run is an outcome of status failed.
	FailFast bool
}

// Batch runs the jobs in real time, each with its own fake model and
// clients (Start), at most opts.Parallel at once, each recorded when it
// names a journal (with job.Header, or Header when it has none). It
// returns the outcomes in the jobs' order: the virtual clock's, so a
// caller reads both clocks' runs the same way. When ctx ends the runs in
// flight stop as on Ctrl-C and those not started are not run (status
// interrupted, empty summary).
func Batch(ctx context.Context, jobs []vclock.Job, opts BatchOptions) ([]vclock.Outcome, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := opts.Parallel
	if n <= 0 {
		n = vclock.DefaultParallel() // sized to memory: a 10,000-drill compare must not start them all
	}
	n = min(n, len(jobs))
	done := newDoneCounter(len(jobs))
	if opts.Progress != nil {
		total := 0
		for _, j := range jobs {
			total += j.Config.Emails
		}
		defer StartProgress(opts.Progress, opts.Label, "emails", total, done.Done)()
	}
	outs := make([]vclock.Outcome, len(jobs))
	slots := make(chan struct{}, max(n, 1))
	var wg sync.WaitGroup
	var failOnce sync.Once
	var failed error
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
			var err error
			outs[i], err = runOne(ctx, job, opts, func(r *workload.Run) {
				done.Started(i, r)
				if opts.OnStart != nil {
					opts.OnStart(i, r)
				}
			})
			if err != nil && opts.FailFast {
				failOnce.Do(func() { failed = err; cancel() })
			}
		})
	}
	wg.Wait()
	if failed != nil {
		return outs, exit.UsageError(failed)
	}
	return outs, nil
}

// runOne runs one drill to its end, recorded when the job names a journal.
// The error is why it could not start or be recorded (the outcome says so
// too, status failed).
func runOne(ctx context.Context, job vclock.Job, opts BatchOptions, onStart func(*workload.Run)) (vclock.Outcome, error) {
	r, err := Start(ctx, job.Config)
	if err != nil {
		return vclock.Outcome{Status: event.StatusFailed, Error: err.Error()}, err
	}
	onStart(r)
	var rec *journal.Writer
	if job.Journal != "" {
		rec, err = record(job, r)
		if err != nil {
			r.Stop()
			<-r.Done()
			return vclock.Outcome{Status: event.StatusFailed, Error: err.Error()}, err
		}
	}
	// The guard aborts through the run's log: the fold reads the reason.
	go Guard(r, opts.Abort, GuardInterval)
	status := r.Wait()
	f := fold(r)
	sum := f.Summary()
	o := vclock.NewOutcome(job, f, sum, status)
	if err := Finish(rec, sum, status, opts.Hypotheses); err != nil {
		o.Error = err.Error()
	}
	return o, nil
}

// record creates the job's journal for run r: with the job's header (its
// start set to the run's), or the run's own header.
func record(job vclock.Job, r *workload.Run) (*journal.Writer, error) {
	if job.Header == nil {
		return Record(job.Journal, r)
	}
	h := *job.Header
	h.Start = r.Log().Start()
	w, err := journal.Create(job.Journal, h, r.Log(), journal.Options{Secrets: job.Config.APIKeys()})
	if err != nil {
		return nil, fmt.Errorf("--record: %w", err)
	}
	return w, nil
}

// Errs are the errors the drills' outcomes end drill with, one per run
// that did not complete: exit.ErrInterrupted (130) for a run the user
// stopped, exit.ErrAborted (3) with the fold's abort reason, and a failed
// run's error (1). Each names the run: its number, outage, policy and seed.
func Errs(cfgs []workload.Config, outs []vclock.Outcome) []error {
	var errs []error
	for i, o := range outs {
		what := fmt.Sprintf("run %d (%s / %s, seed %d)", i+1, cfgs[i].OutageLabel(), cfgs[i].Policy.Name, cfgs[i].Seed)
		switch {
		case o.Status == event.StatusInterrupted:
			errs = append(errs, exit.ErrInterrupted)
		case o.Status == event.StatusAborted:
			errs = append(errs, fmt.Errorf("%s: %w %s", what, exit.ErrAborted, plain.AbortReason(o.Summary)))
		case o.Error != "":
			errs = append(errs, fmt.Errorf("%s: %s", what, o.Error))
		}
	}
	return errs
}

// doneCounter counts the emails done across drills as they go, each run's
// log folded from its own cursor: the figure behind drill compare's and
// drill sweep's progress bars. It is safe for concurrent use.
type doneCounter struct {
	mu      sync.Mutex
	cursors []*event.Cursor
	folds   []*scoring.Fold
}

// newDoneCounter follows n drills, none started yet.
func newDoneCounter(n int) *doneCounter {
	return &doneCounter{cursors: make([]*event.Cursor, n), folds: make([]*scoring.Fold, n)}
}

// Started follows drill i's run from now on.
func (p *doneCounter) Started(i int, r *workload.Run) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cursors[i], p.folds[i] = r.Log().Cursor(), scoring.NewFold()
}

// Done folds what the started runs logged since the last call and returns
// the emails done (served, failed or cancelled) across them.
func (p *doneCounter) Done() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	done := 0
	for i, c := range p.cursors {
		if c == nil {
			continue
		}
		p.folds[i].AddAll(c.Poll())
		done += p.folds[i].Served().Total()
	}
	return done
}
