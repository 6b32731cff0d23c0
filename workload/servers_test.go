package workload

import (
	"runtime"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// TestServersRunEveryServeAndReuseIdleGoroutines checks every serve runs,
// at once even while others are still running, that a goroutine left idle
// takes the next serve instead of a new goroutine, and that wait ends them
// all.
func TestServersRunEveryServeAndReuseIdleGoroutines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServers()
		var ran atomic.Int32
		release := make(chan struct{})
		for range 3 { // three at once, none waiting for another
			s.run(func() { <-release; ran.Add(1) })
		}
		synctest.Wait()
		if got := ran.Load(); got != 0 {
			t.Fatalf("%d serves ran before their release", got)
		}
		close(release)
		synctest.Wait() // the three goroutines are idle
		before := runtime.NumGoroutine()
		hold := make(chan struct{})
		s.run(func() { <-hold; ran.Add(1) })
		synctest.Wait()
		if after := runtime.NumGoroutine(); after != before {
			t.Errorf("%d goroutines while an idle one serves, want %d", after, before)
		}
		close(hold)
		s.wait()
		if got := ran.Load(); got != 4 {
			t.Errorf("%d serves ran, want 4", got)
		}
	})
}
