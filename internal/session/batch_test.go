package session

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// quick is a drill of a few emails without an outage, against a fake model
// that answers at once.
func quick() workload.Config {
	cfg := workload.DefaultConfig()
	cfg.Emails, cfg.Rate, cfg.Outage, cfg.Follow = 4, 40, workload.OutageNone, 0
	cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: 1, NoLatency: true}).Transport()
	return cfg
}

// TestBatchRecordsAndFolds: every job runs to its end; a job with a journal is recorded with its summary; each outcome is
// the fold's summary of its run.
func TestBatchRecordsAndFolds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	h, err := journal.NewHeader(quick(), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	jobs := []vclock.Job{{Config: quick(), Journal: path, Header: &h}, {Config: quick()}, {Config: quick()}}
	var started atomic.Int32
	outs, err := Batch(context.Background(), jobs, BatchOptions{Parallel: 2, OnStart: func(int, *workload.Run) { started.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	if started.Load() != 3 {
		t.Errorf("OnStart called %d times, want 3", started.Load())
	}
	for i, o := range outs {
		if o.Status != event.StatusCompleted || o.Summary.EmailsAnswered != 4 || o.Error != "" {
			t.Errorf("job %d: status %s, %d answered, error %q", i, o.Status, o.Summary.EmailsAnswered, o.Error)
		}
	}
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatalf("the recorded journal does not read: %v", err)
	}
	if j.Status() != event.StatusCompleted {
		t.Errorf("journal status %s", j.Status())
	}
}

// TestBatchAfterCancel: jobs not started when ctx ends are interrupted, with
// no summary.
func TestBatchAfterCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	outs, _ := Batch(ctx, []vclock.Job{{Config: quick()}}, BatchOptions{})
	if outs[0].Status != event.StatusInterrupted || outs[0].Summary.Outage != "" {
		t.Errorf("outcome %+v, want interrupted and never run", outs[0])
	}
}

// TestDoneCounterCountsStartedRuns: the progress counts the emails done by
// the runs started so far, each run folded once.
func TestDoneCounterCountsStartedRuns(t *testing.T) {
	p := newDoneCounter(2)
	if p.Done() != 0 {
		t.Fatal("emails done before any run started")
	}
	r, err := workload.Start(context.Background(), quick())
	if err != nil {
		t.Fatal(err)
	}
	p.Started(1, r)
	r.Wait()
	if got := p.Done(); got != 4 {
		t.Errorf("done %d, want the run's 4 emails", got)
	}
	if got := p.Done(); got != 4 {
		t.Errorf("done %d on a second call, want 4 still", got)
	}
}

// TestErrsGiveEachOutcomeItsExitCode: interrupted 130, aborted 3 with the
// fold's reason, failed 1; a completed run gives none.
func TestErrsGiveEachOutcomeItsExitCode(t *testing.T) {
	cfgs := []workload.Config{quick(), quick(), quick(), quick()}
	outs := []vclock.Outcome{
		{Status: event.StatusCompleted},
		{Status: event.StatusInterrupted},
		{Status: event.StatusAborted, Summary: scoring.Summary{Safeguard: "max spend 0.01"}},
		{Status: event.StatusFailed, Error: "no endpoint"},
	}
	errs := Errs(cfgs, outs)
	if len(errs) != 3 {
		t.Fatalf("%d errors, want 3: %v", len(errs), errs)
	}
	if exit.Code(errs[0]) != exit.Interrupted || exit.Code(errs[1]) != exit.Aborted || exit.Code(errs[2]) != exit.Failed {
		t.Errorf("codes %d %d %d", exit.Code(errs[0]), exit.Code(errs[1]), exit.Code(errs[2]))
	}
	if !strings.Contains(errs[1].Error(), "aborted by max spend 0.01") || !strings.Contains(errs[2].Error(), "run 4") {
		t.Errorf("messages %q, %q", errs[1], errs[2])
	}
}

// TestBatchFailFast: with FailFast, a run that cannot start stops the
// batch and is a usage error naming why; without it, it is a failed
// outcome beside the others.
func TestBatchFailFast(t *testing.T) {
	bad := quick()
	bad.Rate = -1 // refused by the config's validation
	jobs := []vclock.Job{{Config: quick()}, {Config: bad}}
	outs, err := Batch(context.Background(), jobs, BatchOptions{FailFast: true})
	if exit.Code(err) != exit.Usage || !strings.Contains(err.Error(), "rate") {
		t.Errorf("FailFast: error %v (exit %d), want a usage error about the rate", err, exit.Code(err))
	}
	if outs[1].Status != event.StatusFailed {
		t.Errorf("the bad run's status %s, want failed", outs[1].Status)
	}
	outs, err = Batch(context.Background(), jobs, BatchOptions{})
	if err != nil || outs[0].Status != event.StatusCompleted || outs[1].Status != event.StatusFailed {
		t.Errorf("without FailFast: error %v, statuses %s, %s", err, outs[0].Status, outs[1].Status)
	}
}
