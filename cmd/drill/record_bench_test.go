package main

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// recRun runs cfg to its end, recording it to a journal in dir when record
// is set, and returns its events.
func recRun(b *testing.B, cfg workload.Config, record bool, dir string) []event.Event {
	r, err := session.Start(b.Context(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	var path string
	if record {
		path = filepath.Join(dir, "bench.jsonl")
		w, err := session.Record(path, r)
		if err != nil {
			b.Fatal(err)
		}
		status := r.Wait()
		if err := session.Finish(w, session.Summarize(r), status, nil); err != nil {
			b.Fatal(err)
		}
	} else {
		r.Wait()
	}
	return r.Log().Events()
}

// BenchmarkRecordingOverhead is workload's BenchmarkOverhead200PerSecond
// with and without a journal being written: the p50 and p99 of the wait the
// engine adds should not move.
func BenchmarkRecordingOverhead(b *testing.B) {
	for _, record := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "recorded"}[record]
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			var all []time.Duration
			for b.Loop() {
				cfg := workload.DefaultConfig()
				cfg.Outage, cfg.Rate, cfg.Emails, cfg.Follow = workload.OutageNone, 200, 120, 1
				all = append(all, scoring.EngineOverheads(recRun(b, cfg, record, dir))...)
			}
			slices.Sort(all)
			b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-overhead-ms")
			b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-overhead-ms")
		})
	}
}

// BenchmarkRecordingThroughput is workload's BenchmarkThroughput (all 120
// emails at once against a zero-latency model) with and without a journal.
func BenchmarkRecordingThroughput(b *testing.B) {
	model := fakemodel.New(fakemodel.Options{NoLatency: true}).Transport()
	for _, record := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "recorded"}[record]
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			start := time.Now()
			n := 0
			for b.Loop() {
				cfg := workload.DefaultConfig()
				cfg.Outage, cfg.Rate, cfg.Follow = workload.OutageNone, 1e6, 1
				cfg.Endpoint.Transport = model
				recRun(b, cfg, record, dir)
				n += cfg.Emails
			}
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "emails/s")
		})
	}
}
