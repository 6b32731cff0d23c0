//go:build profile

package vclock

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/workload"
)

// TestProfileBigDrill runs one big drill (the breaker preset, a busy
// outage) in a bubble of this process, for -cpuprofile, and logs its
// goroutines, stacks and heap DRILL_PROFILE_AT into the run (8s of real
// time if unset), writing a heap profile then to DRILL_PROFILE_HEAP if
// set. DRILL_PROFILE_EMAILS (100,000) and DRILL_PROFILE_RATE (10,000 a
// second) size it. Built with -tags profile.
func TestProfileBigDrill(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("DRILL_PROFILE_EMAILS"))
	rate, _ := strconv.ParseFloat(os.Getenv("DRILL_PROFILE_RATE"), 64)
	at, _ := time.ParseDuration(os.Getenv("DRILL_PROFILE_AT"))
	cfg := workload.DefaultConfig()
	p, err := workload.Preset("breaker")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Policy, cfg.Outage = p, "busy"
	cfg.Emails, cfg.Rate = cmp.Or(n, 100_000), cmp.Or(rate, 10_000)
	in, err := json.Marshal(Batch[Job]{Jobs: []Job{{Config: cfg}}, Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(cmp.Or(at, 8*time.Second), func() {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("goroutines %d, stacks %d MiB, heap in use %d MiB", runtime.NumGoroutine(), ms.StackInuse>>20, ms.HeapInuse>>20)
		if path := os.Getenv("DRILL_PROFILE_HEAP"); path != "" {
			f, err := os.Create(path)
			if err != nil {
				t.Error(err)
				return
			}
			defer f.Close()
			if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
				t.Error(err)
			}
		}
	})
	defer timer.Stop()
	start := time.Now()
	synctest.Test(t, func(t *testing.T) {
		var out bytes.Buffer
		if err := runDrills(t.Context(), in, &out); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%d emails at %g a second: %v", cfg.Emails, cfg.Rate, time.Since(start).Round(time.Millisecond))
}
