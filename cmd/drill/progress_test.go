package main

import (
	"bytes"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// TestProgressLines: off a terminal, a line every lineEvery with the count,
// the percentage and an ETA from the pace so far; nothing after stop.
func TestProgressLines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out syncBuffer
		var done atomic.Int64
		stop := startProgress(&out, "sweep", "emails", 100, func() int { return int(done.Load()) })
		done.Store(25)
		time.Sleep(lineEvery + time.Millisecond) // 25 of 100 after 5 s: 15 s left
		done.Store(50)
		time.Sleep(lineEvery) // 50 after 10 s: 10 s left
		stop()
		stop() // twice is fine
		time.Sleep(3 * lineEvery)
		want := "drill sweep: 25/100 emails (25%), ETA 15s\ndrill sweep: 50/100 emails (50%), ETA 10s\n"
		if got := out.String(); got != want {
			t.Errorf("progress lines:\n%q\nwant\n%q", got, want)
		}
	})
}

func TestETAText(t *testing.T) {
	for _, c := range []struct {
		elapsed     time.Duration
		done, total int
		want        string
	}{
		{10 * time.Second, 0, 10, ""},
		{10 * time.Second, 10, 10, ""},
		{10 * time.Second, 5, 10, ", ETA 10s"},
		{90 * time.Second, 60, 100, ", ETA 1m0s"},
	} {
		if got := etaText(c.elapsed, c.done, c.total); got != c.want {
			t.Errorf("etaText(%s, %d, %d) = %q, want %q", c.elapsed, c.done, c.total, got, c.want)
		}
	}
	if stop := startProgress(&bytes.Buffer{}, "x", "emails", 0, func() int { return 0 }); stop == nil {
		t.Error("no stop for an empty total")
	}
	var b strings.Builder
	startProgress(&b, "x", "emails", 0, func() int { return 0 })()
	if b.Len() != 0 {
		t.Errorf("progress of nothing printed %q", b.String())
	}
}
