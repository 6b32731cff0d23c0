package vclock

import (
	"os"
	"runtime/debug"
	"slices"
	"testing"
)

func TestChildGODEBUG(t *testing.T) {
	for _, c := range []struct{ env, want []string }{
		{[]string{"A=1"}, []string{"A=1", "GODEBUG=adaptivestackstart=0"}},
		{[]string{"GODEBUG="}, []string{"GODEBUG=adaptivestackstart=0"}},
		{[]string{"GODEBUG=gctrace=1"}, []string{"GODEBUG=gctrace=1,adaptivestackstart=0"}},
		{[]string{"GODEBUG=adaptivestackstart=1"}, []string{"GODEBUG=adaptivestackstart=1"}}, // the user's choice stands
	} {
		if got := childGODEBUG(c.env); !slices.Equal(got, c.want) {
			t.Errorf("childGODEBUG(%q) = %q, want %q", c.env, got, c.want)
		}
	}
}

// TestBeside: while a virtual-clock process plays beside a live run, drill
// collects at the process's GOGC; the last undo puts the old one back.
func TestBeside(t *testing.T) {
	if v, set := os.LookupEnv("GOGC"); set {
		t.Setenv("GOGC", v) // restored after the test
		os.Unsetenv("GOGC")
	}
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	gc := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }

	undo1 := Beside()
	undo2 := Beside()
	if p := gc(); p != sharedGCPercent {
		t.Fatalf("GOGC %d beside a virtual-clock process, want %d", p, sharedGCPercent)
	}
	undo1()
	undo1() // undoing twice is undoing once
	if p := gc(); p != sharedGCPercent {
		t.Fatalf("GOGC %d with one process still beside, want %d", p, sharedGCPercent)
	}
	undo2()
	if p := gc(); p != 100 {
		t.Fatalf("GOGC %d after the last undo, want 100", p)
	}

	t.Setenv("GOGC", "200")
	Beside()()
	if p := gc(); p != 100 {
		t.Fatalf("GOGC set in the environment: Beside changed the GC percent to %d", p)
	}
}
