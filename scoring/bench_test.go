package scoring_test

import (
	"runtime"
	"testing"

	"github.com/drill-dev/drill/internal/journal/journaltest"
	"github.com/drill-dev/drill/scoring"
)

// BenchmarkFold100k folds a 100,000-email run (about 630,000 events) and
// reports the fold's retained heap per email: what the summary, the
// dashboard and the report keep of a run (every email's record; attempts
// off, as drill run keeps them).
func BenchmarkFold100k(b *testing.B) {
	evs := journaltest.Run(journaltest.Options{Emails: 100_000, Rate: 50, Breaker: true, From: 600, To: 1200, Seed: 7})
	var before, after runtime.MemStats
	var f *scoring.Fold
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		f = scoring.NewFold()
		f.AddAll(evs)
		runtime.GC()
		runtime.ReadMemStats(&after)
	}
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/100_000, "retained-B/email")
	b.ReportMetric(float64(len(evs)), "events")
	runtime.KeepAlive(f)
}

// BenchmarkSummary100k is one Summary of a folded 100,000-email run: what
// the dashboard pays each time a batch of events arrives, and drill run,
// replay and the journal once at the end.
func BenchmarkSummary100k(b *testing.B) {
	evs := journaltest.Run(journaltest.Options{Emails: 100_000, Rate: 50, Breaker: true, From: 600, To: 1200, Seed: 7})
	f := scoring.NewFold()
	f.AddAll(evs)
	for b.Loop() {
		if s := f.Summary(); s.Served.Total() != 100_000 {
			b.Fatalf("served %d", s.Served.Total())
		}
	}
}
