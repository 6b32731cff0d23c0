package fakemodel_test

import (
	"bytes"
	"strings"
	"sync"
)

func bytesReader(b []byte) *bytes.Reader     { return bytes.NewReader(b) }
func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

// syncBuffer is a bytes.Buffer safe for concurrent writes.
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
