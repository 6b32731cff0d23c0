package vclock

import (
	"runtime/debug"
	"testing"

	"github.com/drill-dev/drill/workload"
)

// TestSmallDrillsCollectLessOften: only a batch of more than one drill,
// none over smallDrill emails, is small; and setGCPercent leaves a process
// that is not a virtual-clock child (this test) at its GOGC.
func TestSmallDrillsCollectLessOften(t *testing.T) {
	job := func(emails int) Job {
		cfg := workload.DefaultConfig()
		cfg.Emails = emails
		return Job{Config: cfg}
	}
	for _, tc := range []struct {
		jobs []Job
		want bool
	}{
		{[]Job{job(120)}, false},
		{[]Job{job(120), job(120)}, true},
		{[]Job{job(120), job(smallDrill)}, true},
		{[]Job{job(120), job(smallDrill + 1)}, false},
	} {
		if got := smallDrills(tc.jobs); got != tc.want {
			t.Errorf("smallDrills of %d jobs = %v, want %v", len(tc.jobs), got, tc.want)
		}
	}
	before := debug.SetGCPercent(77)
	defer debug.SetGCPercent(before)
	setGCPercent(batchGCPercent)
	if p := debug.SetGCPercent(77); p != 77 {
		t.Errorf("GOGC %d after setGCPercent outside a child, want it left at 77", p)
	}
}
