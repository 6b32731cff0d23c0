package report

import (
	"path/filepath"
	"testing"

	"github.com/drill-dev/drill/internal/journal/journaltest"
)

// liveHeapWhileLoading loads the journal at path and returns the largest
// live heap seen while Load folded it (sampled every loadProbeEvery
// events, after a collection) and the run.
func liveHeapWhileLoading(t *testing.T, path string) (uint64, *Run) {
	t.Helper()
	heap := journaltest.StartHeapPeak()
	loadProbe = heap.Sample
	defer func() { loadProbe = nil }()
	r, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return heap.Grown(), r
}

// TestLoadMemoryPerEvent: reading a journal for a report holds, per event
// read, only what the report keeps of each email (its course and wait),
// never the events themselves: the live heap while a 24,000-email journal
// is folded grows over a 3,000-email one's by less than maxPerEvent bytes
// per extra event. A reader that kept every event (a decoded event costs
// several hundred bytes) or every line fails it; a 2-million-event
// journal then stays well under 500 MiB.
func TestLoadMemoryPerEvent(t *testing.T) {
	const maxPerEvent = 120
	dir := t.TempDir()
	write := func(name string, emails int) string {
		path := filepath.Join(dir, name)
		journaltest.WriteSized(t, path, emails, true, 3)
		return path
	}
	small, big := write("small.jsonl", 3000), write("big.jsonl", 24000)
	smallPeak, smallRun := liveHeapWhileLoading(t, small)
	bigPeak, bigRun := liveHeapWhileLoading(t, big)
	extra := bigRun.Meta.Events - smallRun.Meta.Events
	perEvent := float64(int64(bigPeak)-int64(smallPeak)) / float64(extra)
	t.Logf("live heap while loading: %d KiB for %d events, %d KiB for %d events: %.1f B per extra event",
		smallPeak>>10, smallRun.Meta.Events, bigPeak>>10, bigRun.Meta.Events, perEvent)
	if perEvent > maxPerEvent {
		t.Errorf("reading a journal holds %.1f bytes per event (live heap %d KiB at %d events, %d KiB at %d), want under %d",
			perEvent, smallPeak>>10, smallRun.Meta.Events, bigPeak>>10, bigRun.Meta.Events, maxPerEvent)
	}
}
