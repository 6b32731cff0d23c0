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
	out := make([]T, len(paths))
	errs := make([]error, len(paths))
	var next atomic.Int64
	var failed atomic.Int64 // the lowest index that failed; len(paths) while none has
	failed.Store(int64(len(paths)))
	workers := min(runtime.GOMAXPROCS(0), len(paths))
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(paths)) || i > failed.Load() || ctx.Err() != nil {
					return
				}
				v, err := load(ctx, paths[i])
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
	if f := failed.Load(); f < int64(len(paths)) {
		return nil, errs[f]
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
