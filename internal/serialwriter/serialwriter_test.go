package serialwriter

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

// Writes from many goroutines each arrive whole (run with -race: the
// buffer behind it is never written by two at once).
func TestWritesArriveWhole(t *testing.T) {
	var buf bytes.Buffer
	w := New(&buf)
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			for range 20 {
				_, _ = w.Write([]byte("0123456789\n"))
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 1000 {
		t.Fatalf("%d lines, want 1000", len(lines))
	}
	for _, l := range lines {
		if l != "0123456789" {
			t.Fatalf("a torn write: %q", l)
		}
	}
}
