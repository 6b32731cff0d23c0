package journaltest

import (
	"runtime"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
)

// WriteSized writes a synthetic run of emails emails at 200 a second
// (an outage from a quarter to two thirds of the way, a breaker if
// breaker) as a journal at path, for tests that measure a reader.
func WriteSized(tb testing.TB, path string, emails int, breaker bool, seed uint64) {
	tb.Helper()
	h, err := journal.NewHeader(nil, time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC))
	if err != nil {
		tb.Fatal(err)
	}
	dur := float64(emails) / 200
	evs := Run(Options{Emails: emails, Rate: 200, Breaker: breaker, From: dur / 4, To: dur * 2 / 3, Seed: seed})
	if err := Write(path, h, evs, event.StatusCompleted); err != nil {
		tb.Fatal(err)
	}
}

// HeapPeak is the largest live heap sampled since it started, over the
// live heap at its start: what a reader holds while it reads.
type HeapPeak struct{ base, peak uint64 }

// StartHeapPeak collects garbage and takes the live heap as the base.
func StartHeapPeak() *HeapPeak {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return &HeapPeak{base: ms.HeapAlloc}
}

// Sample collects garbage and keeps the live heap if it is the largest
// yet.
func (h *HeapPeak) Sample() {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	h.peak = max(h.peak, ms.HeapAlloc)
}

// Grown is the largest live heap sampled over the base (0 if below).
func (h *HeapPeak) Grown() uint64 { return h.peak - min(h.peak, h.base) }
