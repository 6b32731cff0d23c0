// Package input opens the files drill is given (drill files, email files,
// journals) the one bounded way: regular files only, checked before opening
// so a named pipe cannot block, opened without blocking, checked again on
// the open file, and read up to a size limit per kind of file.
package input

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotFile means a path names something other than a regular file: a
// directory, a named pipe (FIFO), a device or a socket.
var ErrNotFile = errors.New("not a regular file")

// ErrTooLarge means a file is larger than the limit for its kind.
var ErrTooLarge = errors.New("file too large")

// Kind is a kind of file drill reads: its name and what it should be, for
// messages, and its size limit.
type Kind struct {
	// Name is what the file is, as in "a drill file".
	Name string
	// Want says what the file should be, ending the not-a-file message, as
	// in "a journal is a file written by drill --record".
	Want string
	// MaxBytes is the largest file ReadFile accepts; 0 means no limit (the
	// caller streams the file and bounds what it keeps).
	MaxBytes int64
}

// FileError is a file refused for what it is or for its size; it names the
// file and wraps ErrNotFile or ErrTooLarge.
type FileError struct {
	Path string
	// Err is ErrNotFile or ErrTooLarge.
	Err error
	// Detail follows the path in the message.
	Detail string
}

// Error reads "PATH: DETAIL".
func (e *FileError) Error() string { return e.Path + ": " + e.Detail }

// Unwrap returns ErrNotFile or ErrTooLarge.
func (e *FileError) Unwrap() error { return e.Err }

// Open opens the file at path for reading. Only a regular file (or a
// symbolic link to one) is opened: anything else is a *FileError wrapping
// ErrNotFile, checked before opening, so a named pipe with no writer never
// blocks the caller, and checked again on the opened file, so a path
// swapped for a pipe in between is refused too. Other errors are the
// *fs.PathError of stat or open.
func Open(path string, k Kind) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(path, st, k); err != nil {
		return nil, err
	}
	// O_NONBLOCK: opening a pipe that replaced the file must not wait for
	// a writer; on a regular file it changes nothing.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err = f.Stat()
	if err == nil {
		err = check(path, st, k)
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile reads the whole file at path, opened as Open does, refusing one
// larger than k.MaxBytes with a *FileError wrapping ErrTooLarge before
// reading more than one byte past the limit.
func ReadFile(path string, k Kind) ([]byte, error) {
	f, err := Open(path, k)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if k.MaxBytes > 0 {
		r = io.LimitReader(f, k.MaxBytes+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if k.MaxBytes > 0 && int64(len(data)) > k.MaxBytes {
		return nil, tooLarge(path, k)
	}
	return data, nil
}

// check refuses st unless it is a regular file no larger than the limit.
func check(path string, st fs.FileInfo, k Kind) error {
	if !st.Mode().IsRegular() {
		detail := fmt.Sprintf("%v: it is %s", ErrNotFile, describeMode(st.Mode()))
		if k.Want != "" {
			detail += ", and " + k.Want
		}
		return &FileError{Path: path, Err: ErrNotFile, Detail: detail}
	}
	if k.MaxBytes > 0 && st.Size() > k.MaxBytes {
		return tooLarge(path, k)
	}
	return nil
}

func tooLarge(path string, k Kind) error {
	return &FileError{Path: path, Err: ErrTooLarge,
		Detail: fmt.Sprintf("larger than %s, the limit for %s", Size(k.MaxBytes), k.Name)}
}

// Size writes a byte count the short way: "1 MiB", "4 MiB", "512 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
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
