package history

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/journal/journaltest"
)

// BenchmarkLoadJournals reads 200 journals of 120 emails (the lab drill's
// size) as drill history does, in parallel: it reports the CPU-bound cost
// per event and per journal, from which 2,000 journals' time follows
// (`drill history DIR` reads them the same way).
func BenchmarkLoadJournals(b *testing.B) {
	dir := b.TempDir()
	start := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	events := 0
	for i := range 200 {
		evs := journaltest.Run(journaltest.Options{Emails: 120, Rate: 50, Outage: [...]string{"busy", "hang"}[i%2], Breaker: i/2%2 == 1,
			From: 0.6, To: 1.6, Seed: uint64(i + 1)})
		events += len(evs)
		h, err := journal.NewHeader(nil, start.Add(time.Duration(i)*24*time.Hour))
		if err != nil {
			b.Fatal(err)
		}
		if err := journaltest.Write(filepath.Join(dir, fmt.Sprintf("run-%03d.jsonl", i)), h, evs, event.StatusCompleted); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		groups, err := Load(b.Context(), []string{dir}, ByOutagePolicy)
		if err != nil || len(groups) != 4 {
			b.Fatalf("%d groups, %v", len(groups), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*events), "ns/event")
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*200), "ms/journal")
}
