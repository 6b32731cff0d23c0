// Package serialwriter gives several goroutines one writer: each Write
// reaches the writer whole, one at a time (progress lines of drills run at
// once, the stderr of several virtual-clock processes).
package serialwriter

import (
	"io"
	"sync"
)

// Writer serialises writes from several goroutines to one writer.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// New returns w behind a lock.
func New(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes p to the writer, while no other Write does.
func (s *Writer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
