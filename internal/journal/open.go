package journal

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotFile means a journal path names something other than a regular
// file: a directory, a named pipe (FIFO), a device or a socket.
var ErrNotFile = errors.New("not a regular file")

// Open opens the journal file at path for reading. Only a regular file (or
// a symbolic link to one) is opened: anything else is an error wrapping
// ErrNotFile, checked before opening, so a named pipe with no writer never
// blocks the caller, and checked again on the opened file, so a path
// swapped for a pipe in between is refused too.
func Open(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if err := regular(path, st); err != nil {
		return nil, err
	}
	// O_NONBLOCK: opening a pipe that replaced the file must not wait for
	// a writer; on a regular file it changes nothing.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	st, err = f.Stat()
	if err == nil {
		err = regular(path, st)
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// regular returns an error wrapping ErrNotFile unless st is a regular file.
func regular(path string, st fs.FileInfo) error {
	if st.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%s: %w: it is %s, and a journal is a file written by drill --record", path, ErrNotFile, describeMode(st.Mode()))
}

// describeMode names the kind of a file that is not a regular one.
func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	default:
		return "not a regular file"
	}
}

// checkEvery is how many lines a context-aware scan reads between checks of
// its context.
const checkEvery = 256

// watch closes f when ctx ends, to unblock a read from a pollable file.
// The returned function stops watching.
func watch(ctx context.Context, f *os.File) (stop func() bool) {
	return context.AfterFunc(ctx, func() { _ = f.Close() })
}
