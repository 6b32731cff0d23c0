package vclock

import "testing"

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
