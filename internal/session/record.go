package session

import (
	"fmt"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// RecordedConfig is the configuration a journal header records: the run's
// whole workload configuration (whose API key is never serialised) and the
// effective time ceiling the run used.
type RecordedConfig struct {
	workload.Config
	CeilingNS time.Duration `json:"ceiling_ns"`
}

// Header is the journal header of a run of cfg started at start, on the
// real clock (vclock sets "virtual" on the runs it records).
func Header(cfg workload.Config, start time.Time) (journal.Header, error) {
	h, err := journal.NewHeader(RecordedConfig{Config: cfg, CeilingNS: cfg.Ceiling()}, start)
	h.Clock = event.ClockReal
	return h, err
}

// Record creates the journal at path for run and starts writing it as the
// run goes on. Call it right after Start; call Finish after run.Wait. The
// writer follows the run's log at its own pace and never slows the engine.
// A journal that cannot be created is a usage error (exit 2).
func Record(path string, run *workload.Run) (*journal.Writer, error) {
	cfg := run.Config()
	h, err := Header(cfg, run.Log().Start())
	if err != nil {
		return nil, fmt.Errorf("recording %s: %w", path, err)
	}
	w, err := journal.Create(path, h, run.Log(), journal.Options{Secrets: cfg.APIKeys()})
	if err != nil {
		return nil, exit.UsageError(fmt.Errorf("--record: %w", err))
	}
	return w, nil
}

// Finish writes the run's summary, status (completed, interrupted, aborted
// or failed) and the hypotheses judged on the summary as the journal's last
// line, and closes it. A nil writer (not recording) is fine.
func Finish(w *journal.Writer, sum scoring.Summary, status string, hypotheses []scoring.Expr) error {
	if w == nil {
		return nil
	}
	verdicts, err := Judge(sum, hypotheses)
	if verdicts == nil && err != nil {
		return err // the summary has no figures to judge
	}
	if err := w.FinishJudged(sum, status, verdicts); err != nil {
		return fmt.Errorf("recording the journal: %w", err)
	}
	return nil
}
