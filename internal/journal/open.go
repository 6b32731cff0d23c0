package journal

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/drill-dev/drill/internal/input"
)

// ErrNotFile means a journal path names something other than a regular
// file: a directory, a named pipe (FIFO), a device or a socket.
var ErrNotFile = input.ErrNotFile

// journalKind is how input names a journal. A journal is streamed, and
// each line bounded by the reader, so the file has no size limit.
var journalKind = input.Kind{Name: "a journal", Want: "a journal is a file written by drill --record"}

// Open opens the journal file at path for reading the bounded way
// (input.Open): anything but a regular file is an error wrapping
// ErrNotFile, found before opening, so a named pipe with no writer never
// blocks the caller.
func Open(path string) (*os.File, error) {
	f, err := input.Open(path, journalKind)
	if err != nil {
		var fe *input.FileError
		if errors.As(err, &fe) {
			return nil, err
		}
		return nil, fmt.Errorf("journal: %w", err)
	}
	return f, nil
}

// checkEvery is how many lines a context-aware scan reads between checks of
// its context.
const checkEvery = 256

// watch closes f when ctx ends, to unblock a read from a pollable file.
// The returned function stops watching.
func watch(ctx context.Context, f *os.File) (stop func() bool) {
	return context.AfterFunc(ctx, func() { _ = f.Close() })
}
