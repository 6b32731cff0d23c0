package main

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/drill-dev/drill/workload"
)

func TestZZHeap(t *testing.T) {
	if os.Getenv("ZZHEAP") == "" {
		t.Skip()
	}
	cfg := workload.DefaultConfig()
	cfg.Emails, cfg.Rate = 30000, 1000
	run, err := startRun(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	w, err := startRecording(filepath.Join(t.TempDir(), "x.jsonl"), run)
	if err != nil {
		t.Fatal(err)
	}
	folded := liveFold(t.Context(), run)
	go func() {
		time.Sleep(25 * time.Second)
		runtime.GC()
		f, _ := os.Create("/tmp/scale/heap.prof")
		pprof.WriteHeapProfile(f)
		f.Close()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("heap inuse %d MB, sys %d MB, goroutines %d, events %d", ms.HeapInuse>>20, ms.Sys>>20, runtime.NumGoroutine(), run.Log().Len())
	}()
	status := run.Wait()
	fold := <-folded
	finishRecording(w, fold.Summary(), status)
	t.Logf("%+v", fold.Summary().Served)
}
