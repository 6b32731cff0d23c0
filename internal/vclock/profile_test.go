//go:build profile

package vclock

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os"
	"runtime"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/workload"
)

// TestProfileSweepInProcess runs a share of a sweep in a bubble of this
// process, so that -cpuprofile and -memprofile see the drills' own work
// (the child processes a sweep normally uses are out of a test's profile).
// Built with -tags profile; DRILL_PROFILE_DRILLS=N runs N drills (200
// if unset).
func TestProfileSweepInProcess(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("DRILL_PROFILE_DRILLS"))
	if n <= 0 {
		n = 200
	}
	var jobs []Job
	for i := 0; len(jobs) < n; i++ {
		cfg := workload.DefaultConfig()
		p, err := workload.Preset("breaker")
		if err != nil {
			t.Fatal(err)
		}
		p.Primary.TimeLimit = time.Duration(1+i%5) * time.Second
		p.Primary.Retries = (i / 5) % 5
		p.Primary.Breaker.Trip.Failures = 3 + (i/25)%10
		cfg.Outage, cfg.Policy = "busy", p
		jobs = append(jobs, Job{Config: cfg})
	}
	parallel, _ := strconv.Atoi(os.Getenv("DRILL_PROFILE_PARALLEL"))
	in, err := json.Marshal(Batch[Job]{Jobs: jobs, Parallel: cmp.Or(parallel, 32)})
	if err != nil {
		t.Fatal(err)
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	synctest.Test(t, func(t *testing.T) {
		var out bytes.Buffer
		if err := runDrills(t.Context(), in, &out); err != nil {
			t.Fatal(err)
		}
	})
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	t.Logf("%d drills: %.1f KB and %.0f allocations a drill, %d GC cycles",
		n, float64(after.TotalAlloc-before.TotalAlloc)/1024/float64(n), float64(after.Mallocs-before.Mallocs)/float64(n), after.NumGC-before.NumGC)
}
