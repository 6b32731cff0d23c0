package vclock

import (
	"runtime"
	"testing"
)

func TestParallelSizedToMemory(t *testing.T) {
	for _, c := range []struct {
		avail int64
		want  int
	}{
		{0, MaxDefaultParallel},        // unknown
		{1 << 20, 1},                   // a starved machine still runs one
		{320 << 20, 10},                // half of 320 MiB at 16 MiB a drill
		{64 << 30, MaxDefaultParallel}, // plenty: the cap
	} {
		if got := parallelFor(c.avail); got != c.want {
			t.Errorf("parallelFor(%d) = %d, want %d", c.avail, got, c.want)
		}
	}
	if n := DefaultParallel(); n < 1 || n > MaxDefaultParallel {
		t.Errorf("DefaultParallel() = %d on this machine", n)
	}
}

// TestShards: one child per CPU, never more than the drills or the bound.
func TestShards(t *testing.T) {
	cpus := runtime.GOMAXPROCS(0)
	for _, tc := range []struct{ jobs, parallel, want int }{
		{1, 64, 1}, {100, 1, 1}, {100, 64, min(cpus, 64)}, {2, 64, min(cpus, 2)}, {0, 64, 1},
	} {
		if got := Shards(tc.jobs, tc.parallel); got != tc.want {
			t.Errorf("Shards(%d, %d) = %d, want %d (%d CPUs)", tc.jobs, tc.parallel, got, tc.want, cpus)
		}
	}
}
