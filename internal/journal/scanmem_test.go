package journal_test

import (
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/journal/journaltest"
)

// TestScanMemoryFlat: the reader holds one line at a time: the live heap
// while Scan reads a 12,000-email journal is no larger than while it reads
// a 3,000-email one, give or take maxPerEvent bytes per extra event (a
// reader that kept its lines or events holds hundreds).
func TestScanMemoryFlat(t *testing.T) {
	const maxPerEvent = 4
	dir := t.TempDir()
	peakWhileScanning := func(emails int) (uint64, int) {
		path := filepath.Join(dir, "j.jsonl")
		h, err := journal.NewHeader(nil, time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		dur := float64(emails) / 200
		evs := journaltest.Run(journaltest.Options{Emails: emails, Rate: 200, From: dur / 4, To: dur * 2 / 3, Seed: 5})
		if err := journaltest.Write(path, h, evs, event.StatusCompleted); err != nil {
			t.Fatal(err)
		}
		evs = nil
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		var peak uint64
		n := 0
		meta, err := journal.Scan(path, func(event.Event) error {
			if n++; n%4096 == 0 {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return peak - min(peak, base.HeapAlloc), meta.Events
	}
	smallPeak, smallEvents := peakWhileScanning(3000)
	bigPeak, bigEvents := peakWhileScanning(12000)
	perEvent := float64(int64(bigPeak)-int64(smallPeak)) / float64(bigEvents-smallEvents)
	t.Logf("live heap while scanning: %d KiB for %d events, %d KiB for %d events: %.2f B per extra event",
		smallPeak>>10, smallEvents, bigPeak>>10, bigEvents, perEvent)
	if perEvent > maxPerEvent {
		t.Errorf("scanning a journal holds %.1f bytes per event, want under %d", perEvent, maxPerEvent)
	}
}
