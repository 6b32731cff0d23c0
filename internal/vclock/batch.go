package vclock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/drill-dev/drill/internal/serialwriter"
)

// Batch is the input of a body run by CallJobs: its share of the jobs and
// how many of them may run at once.
type Batch[J any] struct {
	Jobs     []J `json:"jobs"`
	Parallel int `json:"parallel"`
}

// CallJobs runs jobs in virtual time and returns one output per job, in
// the order of jobs. The jobs are dealt to Shards child processes, each
// running the body registered as name (RunBatch) on its share in a bubble
// of its own, with at most parallel jobs at once in all (0:
// DefaultParallel, sized to memory). One bubble keeps about one core busy
// however many drills it runs, since its clock advances only when all its
// goroutines wait: one per CPU uses them all.
func CallJobs[J, O any](ctx context.Context, name string, jobs []J, parallel int, stderr io.Writer) ([]O, error) {
	if parallel <= 0 {
		parallel = DefaultParallel()
	}
	n := Shards(len(jobs), parallel)
	shares := make([]Batch[J], n)
	for i, j := range jobs {
		shares[i%n].Jobs = append(shares[i%n].Jobs, j) // dealt, so each share is a like mix
	}
	if n > 1 {
		stderr = serialwriter.New(stderr) // the processes write it at once
	}
	outs := make([][]O, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for k := range shares {
		shares[k].Parallel = max(1, (parallel+n-1-k)/n) // parallel split as evenly as it goes
		wg.Go(func() { outs[k], errs[k] = callShare[J, O](ctx, name, shares[k], stderr) })
	}
	wg.Wait()
	var failed []error
	for _, err := range errs {
		if err != nil {
			failed = append(failed, err)
		}
	}
	switch len(failed) {
	case 0:
	case 1:
		return nil, failed[0] // as the child gave it: its exit code stands
	default:
		return nil, errors.Join(failed...)
	}
	all := make([]O, len(jobs))
	for i := range jobs {
		all[i] = outs[i%n][i/n]
	}
	return all, nil
}

// Shards is how many child processes CallJobs deals jobs to, at most
// parallel at once: one per CPU this process may use, no more than the
// jobs or the bound.
func Shards(jobs, parallel int) int {
	return max(1, min(runtime.GOMAXPROCS(0), jobs, parallel))
}

// callShare runs one share of the jobs in one child process.
func callShare[J, O any](ctx context.Context, name string, b Batch[J], stderr io.Writer) ([]O, error) {
	pr, pw := io.Pipe()
	var outs []O
	var decErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		decErr = json.NewDecoder(pr).Decode(&outs)
		_, _ = io.Copy(io.Discard, pr)
	})
	err := Call(ctx, name, b, pw, stderr)
	pw.Close()
	wg.Wait()
	if err != nil {
		return nil, err
	}
	if decErr != nil {
		return nil, fmt.Errorf("vclock: reading the outcomes of %s: %w", name, decErr)
	}
	if len(outs) != len(b.Jobs) {
		return nil, fmt.Errorf("vclock: %d outcomes of %s for %d jobs", len(outs), name, len(b.Jobs))
	}
	return outs, nil
}

// RunBatch is the body side of CallJobs: it decodes a Batch from in, runs
// each job with run, at most Batch.Parallel at once, and writes the outputs
// in order to out. When ctx ends, the jobs not started are not run: their
// output is notRun's.
func RunBatch[J, O any](ctx context.Context, in []byte, out io.Writer, run func(context.Context, J) O, notRun O) error {
	b, err := decodeBatch[J](in)
	if err != nil {
		return err
	}
	return runBatch(ctx, b, out, run, notRun)
}

// decodeBatch decodes a body's input.
func decodeBatch[J any](in []byte) (Batch[J], error) {
	var b Batch[J]
	if err := json.Unmarshal(in, &b); err != nil {
		return b, fmt.Errorf("vclock: decoding the jobs: %w", err)
	}
	return b, nil
}

// runBatch is RunBatch on a decoded batch.
func runBatch[J, O any](ctx context.Context, b Batch[J], out io.Writer, run func(context.Context, J) O, notRun O) error {
	outs := make([]O, len(b.Jobs))
	slots := make(chan struct{}, max(1, min(b.Parallel, len(b.Jobs))))
	var wg sync.WaitGroup
	for i, job := range b.Jobs {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		// Done, not Err: a stop reported by Err before the bubble's poll
		// ended Done still starts the jobs up to that poll, as it always
		// has, so a single drill interrupted at once leaves its journal.
		select {
		case <-ctx.Done():
			outs[i] = notRun
			continue
		default:
		}
		wg.Go(func() {
			defer func() { <-slots }()
			outs[i] = run(ctx, job)
		})
	}
	wg.Wait()
	return json.NewEncoder(out).Encode(outs)
}
