package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// recordedConfig is the configuration a journal header records: the run's
// whole workload configuration (whose API key is never serialised) and the
// effective time ceiling the run used.
type recordedConfig struct {
	workload.Config
	CeilingNS time.Duration `json:"ceiling_ns"`
}

// startRecording creates the journal at path for run and starts writing it
// as the run goes on. Call it right after workload.Start; call
// finishRecording after run.Wait. The writer follows the run's log at its
// own pace and never slows the engine.
func startRecording(path string, run *workload.Run) (*journal.Writer, error) {
	cfg := run.Config()
	h, err := recordingHeader(cfg, run.Log().Start())
	if err != nil {
		return nil, fmt.Errorf("recording %s: %w", path, err)
	}
	w, err := journal.Create(path, h, run.Log(), journal.Options{Secrets: cfg.APIKeys()})
	if err != nil {
		return nil, exit.UsageError(fmt.Errorf("--record: %w", err))
	}
	return w, nil
}

// recordingHeader is the journal header of a run of cfg started at start,
// on the real clock (vclock sets "virtual" on the runs it records).
func recordingHeader(cfg workload.Config, start time.Time) (journal.Header, error) {
	h, err := journal.NewHeader(recordedConfig{Config: cfg, CeilingNS: cfg.Ceiling()}, start)
	h.Clock = event.ClockReal
	return h, err
}

// finishRecording writes the run's summary and status (completed,
// interrupted, aborted or failed) as the journal's last line and closes it. A nil
// writer (not recording) is fine.
func finishRecording(w *journal.Writer, sum scoring.Summary, status string) error {
	if w == nil {
		return nil
	}
	if err := w.Finish(sum, status); err != nil {
		return fmt.Errorf("recording the journal: %w", err)
	}
	return nil
}

// prepareRecordDir makes the directory `drill compare --record DIR` writes
// its journals to.
func prepareRecordDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return exit.UsageError(fmt.Errorf("--record: %w", err))
	}
	return nil
}

// journalPath is the journal of the i-th (from 0) run of `drill compare
// --record DIR`, named after its outage and policy and numbered so that
// DIR/*.jsonl lists the runs in the order compare ran them:
// DIR/01-busy-primary-only.jsonl.
func journalPath(dir string, i int, outage, policy string) string {
	return filepath.Join(dir, fmt.Sprintf("%02d-%s-%s.jsonl", i+1, fileSafe(outage), fileSafe(policy)))
}

// fileSafe keeps letters, digits, '-' and '.' and turns anything else into '-'.
func fileSafe(s string) string {
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

// journalInputError turns an error reading a journal into drill's exit
// codes: a file that is missing, not a journal, corrupt, invalid or from a newer
// drill is bad input (exit 2); anything else is a failure (exit 1).
func journalInputError(err error) error {
	if errors.Is(err, journal.ErrNotJournal) || errors.Is(err, journal.ErrNewerFormat) ||
		errors.Is(err, journal.ErrCorrupt) || errors.Is(err, journal.ErrInvalid) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) ||
		errors.Is(err, syscall.EISDIR) {
		return exit.UsageError(err)
	}
	return err
}

// refuseOverwrite is the check --record makes without --force: a journal is
// a record of a drill, and recording over one loses it.
func refuseOverwrite(path string) error {
	if _, err := os.Lstat(path); err == nil {
		return exit.Usagef("--record: %s already exists; pass --force to overwrite it", path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return exit.UsageError(fmt.Errorf("--record: %w", err))
	}
	return nil
}
