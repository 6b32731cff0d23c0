package session

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/internal/redact"
)

// syncBuffer is a buffer a progress goroutine writes to while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestProgressLines: off a terminal, a line every LineEvery with the count,
// the percentage and an ETA from the pace so far; nothing after stop.
func TestProgressLines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out syncBuffer
		var done atomic.Int64
		stop := StartProgress(&out, "sweep", "emails", 100, func() int { return int(done.Load()) })
		done.Store(25)
		time.Sleep(LineEvery + time.Millisecond) // 25 of 100 after 5 s: 15 s left
		done.Store(50)
		time.Sleep(LineEvery) // 50 after 10 s: 10 s left
		stop()
		stop() // twice is fine
		time.Sleep(3 * LineEvery)
		want := "drill sweep: 25/100 emails (25%), ETA 15s\ndrill sweep: 50/100 emails (50%), ETA 10s\n"
		if got := out.String(); got != want {
			t.Errorf("progress lines:\n%q\nwant\n%q", got, want)
		}
	})
}

// TestProgressOfNothing: a total of zero prints nothing and still returns
// a stop.
func TestProgressOfNothing(t *testing.T) {
	if stop := StartProgress(&bytes.Buffer{}, "x", "emails", 0, func() int { return 0 }); stop == nil {
		t.Error("no stop for an empty total")
	}
	var b strings.Builder
	StartProgress(&b, "x", "emails", 0, func() int { return 0 })()
	if b.Len() != 0 {
		t.Errorf("progress of nothing printed %q", b.String())
	}
}

// TestFileUnwraps: a terminal is found through the writers drill's
// commands print through (the redacting one wraps stdout), so a table on a
// terminal is aligned text and a summary is wrapped to its width; a writer
// that is no file and wraps none is no terminal.
func TestFileUnwraps(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, ok := File(redact.NewTerminalWriter(redact.NewTerminalWriter(f))); !ok || got != f {
		t.Errorf("File(wrapped file) = %v, %v; want the file", got, ok)
	}
	if _, ok := File(&bytes.Buffer{}); ok {
		t.Error("a buffer is a file")
	}
	if IsTerminal(redact.NewTerminalWriter(f)) || TerminalWidth(f) != 0 {
		t.Error("a regular file is a terminal")
	}
}
