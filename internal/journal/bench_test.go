package journal_test

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/journal/journaltest"
	"github.com/drill-dev/drill/scoring"
)

var (
	bigOnce sync.Once
	bigPath string
	bigDir  string
	bigErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if bigDir != "" {
		_ = os.RemoveAll(bigDir)
	}
	os.Exit(code)
}

// bigJournal writes a 100,000-email journal once per test binary.
func bigJournal(b *testing.B) string {
	b.Helper()
	bigOnce.Do(func() {
		bigDir, bigErr = os.MkdirTemp("", "drill-bench-")
		if bigErr != nil {
			return
		}
		bigPath = filepath.Join(bigDir, "big.jsonl")
		evs := journaltest.Run(journaltest.Options{Emails: 100_000, Rate: 50, Breaker: true, From: 600, To: 1200, Seed: 7})
		start := time.Now()
		log := event.NewLog(start)
		h, err := journal.NewHeader(nil, start)
		if err != nil {
			bigErr = err
			return
		}
		w, err := journal.Create(bigPath, h, log, journal.Options{})
		if err != nil {
			bigErr = err
			return
		}
		for _, e := range evs {
			log.AppendRecorded(e)
		}
		log.Close()
		bigErr = w.Finish(scoring.Summarize(evs), event.StatusCompleted)
	})
	if bigErr != nil {
		b.Fatal(bigErr)
	}
	return bigPath
}

// BenchmarkReadSummarize100k reads a 100,000-email journal and folds it into
// the run summary, streaming, as `drill replay --no-tui --json` does. It
// reports the file size, events per second and the peak heap seen while
// reading.
func BenchmarkReadSummarize100k(b *testing.B) {
	path := bigJournal(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	runtime.GC()
	var peak uint64
	var events int
	b.ResetTimer()
	for range b.N {
		f := scoring.NewFold()
		n := 0
		m, err := journal.Scan(path, func(e event.Event) error {
			f.Add(e)
			n++
			if n%250_000 == 0 {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		if s := f.Summary(); s.Emails != 100_000 || m.CutShort() {
			b.Fatalf("summary of %d emails, cut short %v", s.Emails, m.CutShort())
		}
		events = m.Events
	}
	b.StopTimer()
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(events), "events")
	b.ReportMetric(float64(st.Size())/(1<<20), "file-MiB")
}

// BenchmarkWriteEvents encodes a 2,000-email run's events (about 12,600)
// through a Writer to io.Discard: the journal's cost per event, redaction
// included.
func BenchmarkWriteEvents(b *testing.B) {
	evs := journaltest.Run(journaltest.Options{Emails: 2000, Rate: 50, Breaker: true, From: 10, To: 25, Seed: 7})
	b.ReportAllocs()
	for b.Loop() {
		log := event.NewLog(time.Now())
		h, err := journal.NewHeader(nil, log.Start())
		if err != nil {
			b.Fatal(err)
		}
		w, err := journal.NewWriter(io.Discard, h, log, journal.Options{Secrets: []string{"sk-bench-secret"}})
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range evs {
			log.AppendRecorded(e)
		}
		log.Close()
		if err := w.Finish(scoring.Summary{}, event.StatusCompleted); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
}
