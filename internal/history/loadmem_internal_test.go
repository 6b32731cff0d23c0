package history

import (
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
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
		h, err := journal.NewHeader(nil, time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		dur := float64(emails) / 200
		evs := journaltest.Run(journaltest.Options{Emails: emails, Rate: 200, Breaker: true, From: dur / 4, To: dur * 2 / 3, Seed: 3})
		if err := journaltest.Write(path, h, evs, event.StatusCompleted); err != nil {
			t.Fatal(err)
		}
		evs = nil
		var peak uint64
		loadProbe = func() {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
		defer func() { loadProbe = nil }()
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		_, meta, err := load(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		return peak - min(peak, base.HeapAlloc), meta.Events
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
