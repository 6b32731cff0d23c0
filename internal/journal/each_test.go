package journal_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/drill-dev/drill/internal/journal"
)

// TestLoadEachKeepsOrder: results come back in the paths' order, each
// path loaded once.
func TestLoadEachKeepsOrder(t *testing.T) {
	paths := make([]string, 500)
	for i := range paths {
		paths[i] = strconv.Itoa(i)
	}
	var calls atomic.Int64
	got, err := journal.LoadEach(t.Context(), paths, func(_ context.Context, p string) (int, error) {
		calls.Add(1)
		return strconv.Atoi(p)
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("result %d is %d", i, v)
		}
	}
	if calls.Load() != int64(len(paths)) {
		t.Errorf("%d loads for %d paths", calls.Load(), len(paths))
	}
}

// TestLoadEachFirstErrorInOrder: of several failing journals, the error
// returned is the first one's in the paths' order, whichever failed first.
func TestLoadEachFirstErrorInOrder(t *testing.T) {
	paths := make([]string, 300)
	for i := range paths {
		paths[i] = strconv.Itoa(i)
	}
	for range 20 {
		_, err := journal.LoadEach(t.Context(), paths, func(_ context.Context, p string) (int, error) {
			n, _ := strconv.Atoi(p)
			if n == 120 || n == 121 || n == 250 {
				return 0, fmt.Errorf("bad %d", n)
			}
			return n, nil
		})
		if err == nil || err.Error() != "bad 120" {
			t.Fatalf("error %v, want bad 120", err)
		}
	}
}

// TestLoadEachStopsWithContext: an ended context stops the loads and is
// the error: once it has ended, no load starts (each worker may be in the
// middle of one).
func TestLoadEachStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancelled := make(chan struct{})
	var calls atomic.Int64
	_, err := journal.LoadEach(ctx, make([]string, 1000), func(context.Context, string) (int, error) {
		switch n := calls.Add(1); {
		case n == 10:
			cancel()
			close(cancelled)
		case n > 10:
			<-cancelled // a load begun beside the 10th ends after it
		}
		return 0, nil
	})
	if limit := int64(10 + runtime.GOMAXPROCS(0)); !errors.Is(err, context.Canceled) || calls.Load() > limit {
		t.Errorf("error %v after %d loads, want context.Canceled after at most %d", err, calls.Load(), limit)
	}
}
