package history

import (
	"path/filepath"
	"testing"

	"github.com/drill-dev/drill/internal/journal/journaltest"
)

// TestLoadMemoryPerEvent: reading a journal for the history holds, per
// event read, only the fold's record of each email, never the events: the
// live heap while a 24,000-email journal is folded grows over a
// 3,000-email one's by less than maxPerEvent bytes per extra event (a
// reader keeping every event holds several hundred).
func TestLoadMemoryPerEvent(t *testing.T) {
	const maxPerEvent = 120
	dir := t.TempDir()
	peakWhileLoading := func(emails int) (uint64, int) {
		path := filepath.Join(dir, "j.jsonl")
		journaltest.WriteSized(t, path, emails, true, 3)
		heap := journaltest.StartHeapPeak()
		loadProbe = heap.Sample
		defer func() { loadProbe = nil }()
		_, meta, err := load(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		return heap.Grown(), meta.Events
	}
	smallPeak, smallEvents := peakWhileLoading(3000)
	bigPeak, bigEvents := peakWhileLoading(24000)
	perEvent := float64(int64(bigPeak)-int64(smallPeak)) / float64(bigEvents-smallEvents)
	t.Logf("live heap while loading: %d KiB for %d events, %d KiB for %d events: %.1f B per extra event",
		smallPeak>>10, smallEvents, bigPeak>>10, bigEvents, perEvent)
	if perEvent > maxPerEvent {
		t.Errorf("reading a journal holds %.1f bytes per event, want under %d", perEvent, maxPerEvent)
	}
}
