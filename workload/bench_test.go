package workload

import (
	"slices"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/scoring"
)

// benchmarkOverhead runs a no-outage drill in real time at rate emails/s
// against the fake model with its usual latencies, and reports the p50 and
// p99 of the wait the engine adds (SDK, chain, breaker, log, scheduling).
func benchmarkOverhead(b *testing.B, rate float64, emails int) {
	var all []time.Duration
	for b.Loop() {
		cfg := fakeConfig()
		cfg.Outage, cfg.Rate, cfg.Emails, cfg.Follow = OutageNone, rate, emails, 1
		r, err := Start(b.Context(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		r.Wait()
		all = append(all, scoring.EngineOverheads(r.Log().Events())...)
	}
	slices.Sort(all)
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-overhead-ms")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-overhead-ms")
}

// BenchmarkOverhead2PerSecond is the chapter's arrival rate (20 emails, so
// one run takes about 11 s of real time).
func BenchmarkOverhead2PerSecond(b *testing.B) { benchmarkOverhead(b, 2, 20) }

// BenchmarkOverhead200PerSecond is a hundred times the chapter's rate: all
// 120 emails in 0.6 s, about 150 in flight at once.
func BenchmarkOverhead200PerSecond(b *testing.B) { benchmarkOverhead(b, 200, 120) }

// BenchmarkThroughput measures the most emails per second one process
// pushes through the engine against a zero-latency fake model: all 120
// emails released at once, repeatedly.
func BenchmarkThroughput(b *testing.B) {
	model := fakemodel.New(fakemodel.Options{NoLatency: true}).Transport()
	start := time.Now()
	n := 0
	for b.Loop() {
		cfg := DefaultConfig()
		cfg.Outage, cfg.Rate, cfg.Follow = OutageNone, 1e6, 1
		cfg.Endpoint.Transport = model
		r, err := Start(b.Context(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		r.Wait()
		n += cfg.Emails
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "emails/s")
}
