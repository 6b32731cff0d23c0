package journal_test

import (
	"path/filepath"
	"testing"

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
		journaltest.WriteSized(t, path, emails, false, 5)
		heap := journaltest.StartHeapPeak()
		n := 0
		meta, err := journal.Scan(path, func(event.Event) error {
			if n++; n%4096 == 0 {
				heap.Sample()
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return heap.Grown(), meta.Events
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
