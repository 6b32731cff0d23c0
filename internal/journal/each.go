package journal

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// LoadEach calls load on every path and returns the results in the paths'
// order, loading up to one journal per processor at once: a report or a
// history of 2,000 journals reads them in parallel, each streamed, so
// memory is bounded by the journals read at once, not by how many there
// are. The error returned is the first in the paths' order (as a loop
// over them would return); once one journal fails, journals after it are
// not started. LoadEach stops with ctx's error once ctx ends.
func LoadEach[T any](ctx context.Context, paths []string, load func(ctx context.Context, path string) (T, error)) ([]T, error) {
	return Parallel(ctx, paths, load)
}

// Parallel calls fn on every item, up to one call per processor at once,
// and returns the results in the items' order. The error returned is the
// first in the items' order; once one call fails, items after it are not
// started. Parallel stops with ctx's error once ctx ends.
func Parallel[In, T any](ctx context.Context, items []In, fn func(ctx context.Context, item In) (T, error)) ([]T, error) {
	out := make([]T, len(items))
	errs := make([]error, len(items))
	var next atomic.Int64
	var failed atomic.Int64 // the lowest index that failed; len(items) while none has
	failed.Store(int64(len(items)))
	workers := min(runtime.GOMAXPROCS(0), len(items))
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(items)) || i > failed.Load() || ctx.Err() != nil {
					return
				}
				v, err := fn(ctx, items[i])
				if err != nil {
					errs[i] = err
					for f := failed.Load(); i < f && !failed.CompareAndSwap(f, i); f = failed.Load() {
					}
					continue
				}
				out[i] = v
			}
		})
	}
	wg.Wait()
	if f := failed.Load(); f < int64(len(items)) {
		return nil, errs[f]
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
