package journal

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/outfile"
)

// RunPath is the journal of the i-th (from 0) run recorded into dir, named
// after its outage and policy and numbered so that dir/*.jsonl lists the
// runs in the order they ran: dir/01-busy-primary-only.jsonl.
func RunPath(dir string, i int, outage, policy string) string {
	return filepath.Join(dir, fmt.Sprintf("%02d-%s-%s.jsonl", i+1, FileSafe(outage), FileSafe(policy)))
}

// ChatRunPath is the journal of the i-th (from 0) chat drill recorded into
// dir by drill compare --workload chat, named after its incident, policy
// ('+' between checks written '_') and seed:
// dir/01-chat-mixed-agent-defaults-seed1.jsonl.
func ChatRunPath(dir string, i int, incident, policy string, seed int64) string {
	return filepath.Join(dir, fmt.Sprintf("%02d-chat-%s-%s-seed%d.jsonl", i+1, incident, strings.ReplaceAll(policy, "+", "_"), seed))
}

// FileSafe keeps letters, digits, '-' and '.' and turns anything else into
// '-', so a name can go into a file name ("run" for an empty one).
func FileSafe(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return "run"
	}
	return b.String()
}

// PrepareDir makes the directory journals are recorded into (`--record
// DIR`); failing is a usage error (exit 2).
func PrepareDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return exit.UsageError(fmt.Errorf("--record: %w", err))
	}
	return nil
}

// CheckRecord is the one check every --record makes before anything runs
// (run, compare, sweep, fleet and proxy, on either clock): a journal is a
// record of a drill, and recording over one loses it, so an existing path
// is a usage error (exit 2) that points at --force; and a journal whose
// directory does not exist could only fail once the drill had run, so that
// is one too; and a journal over one of the command's inputs is refused
// even with --force (outfile.Check). With no path (not recording) there is
// nothing to check.
func CheckRecord(path string, force bool, inputs ...string) error {
	return outfile.Check("--record", path, force, inputs)
}

// ReadError maps an error met reading journals to drill's exit codes: the
// context ending is an interruption (exit 130); a path that cannot be
// opened or is not a regular file (a directory, a named pipe, a device, a
// symbolic link loop), a file that opens but cannot be read, and a journal
// that is missing, not a journal, corrupt, invalid or from a newer drill
// are bad input (exit 2); anything else is a failure (exit 1).
func ReadError(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return exit.ErrInterrupted
	}
	var pe *fs.PathError
	if errors.Is(err, ErrNotFile) || (errors.As(err, &pe) && (pe.Op == "open" || pe.Op == "stat")) {
		return exit.UsageError(err)
	}
	if errors.As(err, &pe) && pe.Op == "read" {
		// A file that opens but cannot be read (/proc/self/mem, a device):
		// not a journal drill can read, as a corrupt one is not.
		return exit.UsageError(fmt.Errorf("%w: the file cannot be read as a journal", err))
	}
	for _, bad := range []error{ErrNotJournal, ErrNewerFormat, ErrCorrupt, ErrInvalid, fs.ErrNotExist, fs.ErrPermission, syscall.EISDIR} {
		if errors.Is(err, bad) {
			return exit.UsageError(err)
		}
	}
	return err
}

// Expand turns the arguments of a command that reads journals into the
// journals to read: a file stands for itself, a directory for the journals
// (*.jsonl) in it, sorted by name. A missing path or a directory without
// journals is a usage error (exit 2).
func Expand(args []string) ([]string, error) {
	var paths []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, exit.UsageError(err)
		}
		if !st.IsDir() {
			paths = append(paths, a)
			continue
		}
		found, err := filepath.Glob(filepath.Join(a, "*.jsonl"))
		if err != nil {
			return nil, exit.UsageError(err)
		}
		if len(found) == 0 {
			return nil, exit.Usagef("%s holds no journals (*.jsonl)", a)
		}
		slices.Sort(found)
		paths = append(paths, found...)
	}
	return paths, nil
}

// SweepRunPath is the journal of repeat r (from 0) of the i-th (from 0)
// setting of a sweep recorded into dir, named after its outage and policy:
// dir/001-busy-breaker-r1.jsonl.
func SweepRunPath(dir string, i, r int, outage, policy string) string {
	return filepath.Join(dir, fmt.Sprintf("%03d-%s-%s-r%d.jsonl", i+1, FileSafe(outage), FileSafe(policy), r+1))
}
