// Package outfile is the one rule every file drill writes on a user's
// behalf follows (-o, --output, --record, drill init's FILE): an existing
// file is refused unless --force is given, and a file that is one of the
// command's own inputs (a journal read, a drill file, an emails file) is
// refused even with --force. Both are usage errors (exit 2) found before
// any work.
package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/drill-dev/drill/internal/exit"
)

// Check refuses path, the value of flag (e.g. "-o", "--record"), when it
// names the same file as one of inputs (whatever the spelling: a relative
// path, a symbolic or hard link), whether or not force is set; when it exists and force is
// not set; or when the directory it would go in does not exist. An empty
// path (no output asked for) passes.
func Check(flag, path string, force bool, inputs []string) error {
	if path == "" {
		return nil
	}
	if err := NotInput(flag, path, inputs); err != nil {
		return err
	}
	if dir := filepath.Dir(path); dir != "." {
		if st, err := os.Stat(dir); err != nil {
			return exit.UsageError(fmt.Errorf("%s %s: %w", flag, path, err))
		} else if !st.IsDir() {
			return exit.Usagef("%s %s: %s is not a directory", flag, path, dir)
		}
	}
	if force {
		return nil
	}
	if _, err := os.Lstat(path); err == nil {
		return exit.Usagef("%s: %s already exists; pass --force to overwrite it", flag, path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return exit.UsageError(fmt.Errorf("%s: %w", flag, err))
	}
	return nil
}

// NotInput refuses path, the value of flag, when it names the same file as
// one of inputs: drill never writes over what it reads, --force or not.
func NotInput(flag, path string, inputs []string) error {
	if path == "" {
		return nil
	}
	for _, in := range inputs {
		if in == "" {
			continue
		}
		if same(path, in) {
			return exit.Usagef("%s %s is one of this command's inputs (%s): drill never writes over its input, even with --force; choose another file", flag, path, in)
		}
	}
	return nil
}

// same reports whether a and b name the same file: the same file on disk
// (os.SameFile, so links count), or, when either does not exist yet, the
// same absolute, cleaned path.
func same(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}
