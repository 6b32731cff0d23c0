package history

import (
	"errors"
	"io/fs"
	"os"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
)

// CheckOutput refuses an output file that is one of the inputs (a journal
// named, or one in a directory named), whatever --force says, and an
// existing file without force: usage errors (exit 2), before any work.
func CheckOutput(out string, inputs []string, force bool) error {
	st, err := os.Stat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return exit.Usagef("-o %s: %w", out, err)
	}
	if st.IsDir() {
		return exit.Usagef("-o %s is a directory", out)
	}
	files, err := journal.Expand(inputs)
	if err != nil {
		return err
	}
	for _, in := range files {
		if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
			return exit.Usagef("-o %s is one of the journals read (%s): drill history never overwrites its input", out, in)
		}
	}
	if !force {
		return exit.Usagef("-o %s exists: give --force to overwrite it", out)
	}
	return nil
}
