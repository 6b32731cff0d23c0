package input

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

var testKind = Kind{Name: "a test file", Want: "a test file is plain text", MaxBytes: 16}

// TestRefusesWhatIsNotAFile: a directory, a named pipe with no writer and
// the devices are refused quickly, naming the path and what it is.
func TestRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		dir:         "a directory",
		fifo:        "a named pipe (FIFO)",
		"/dev/null": "a character device",
		"/dev/zero": "a character device",
	} {
		start := time.Now()
		_, err := ReadFile(path, testKind)
		if !errors.Is(err, ErrNotFile) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), want) ||
			!strings.Contains(err.Error(), testKind.Want) {
			t.Errorf("ReadFile(%s) = %v, want ErrNotFile naming the path and %q", path, err, want)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("ReadFile(%s) took %v", path, d)
		}
		if f, err := Open(path, testKind); err == nil || !errors.Is(err, ErrNotFile) {
			f.Close()
			t.Errorf("Open(%s) = %v, want ErrNotFile", path, err)
		}
	}
}

// TestSizeLimit: a file at the limit is read whole; one byte past it is
// ErrTooLarge naming the file and the limit.
func TestSizeLimit(t *testing.T) {
	dir := t.TempDir()
	at, past := filepath.Join(dir, "at"), filepath.Join(dir, "past")
	if err := os.WriteFile(at, []byte(strings.Repeat("x", 16)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(past, []byte(strings.Repeat("x", 17)), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(at, testKind); err != nil || len(data) != 16 {
		t.Errorf("ReadFile at the limit = %d bytes, %v", len(data), err)
	}
	_, err := ReadFile(past, testKind)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), past) || !strings.Contains(err.Error(), "16 bytes, the limit for a test file") {
		t.Errorf("ReadFile past the limit = %v, want ErrTooLarge naming the file and the limit", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), testKind); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile of a missing file = %v, want ErrNotExist", err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{1 << 20: "1 MiB", 4 << 20: "4 MiB", 2048: "2 KiB", 100: "100 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
