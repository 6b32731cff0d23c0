package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// Virtual runs every drill of cfgs to its end in virtual time, in one
// bubble (vclock.Drills), each recorded to its journal when journals names
// one, with the hypotheses judged on the journal's summary line. It
// returns the outcomes in the order of cfgs. A drill that cannot run in
// virtual time is a usage error (exit 2).
func Virtual(ctx context.Context, cfgs []workload.Config, hyps []scoring.Expr, journals []string, stderr io.Writer) ([]vclock.Outcome, error) {
	return virtual(ctx, cfgs, hyps, journals, nil, stderr)
}

// virtual is Virtual with, for each drill of cfgs, its baseline over its
// whole run (nil for none): a drill that completes carries it on its
// summary and journal.
func virtual(ctx context.Context, cfgs []workload.Config, hyps []scoring.Expr, journals []string,
	baselines []*scoring.BaselineSummary, stderr io.Writer) ([]vclock.Outcome, error) {
	var texts []string
	for _, e := range hyps {
		texts = append(texts, e.String()) // the child parses them again
	}
	now := time.Now()
	jobs := make([]vclock.Job, len(cfgs))
	for i, cfg := range cfgs {
		if err := VirtualUsage(cfg); err != nil {
			return nil, err
		}
		jobs[i] = vclock.Job{Config: cfg, Hypotheses: texts}
		if i < len(baselines) {
			jobs[i].Baseline = baselines[i]
		}
		if i < len(journals) && journals[i] != "" {
			h, err := Header(cfg, now)
			if err != nil {
				return nil, err
			}
			jobs[i].Journal, jobs[i].Header = journals[i], &h
		}
	}
	outs, err := vclock.Drills(ctx, jobs, 0, stderr)
	if err != nil {
		return nil, FromChild(err)
	}
	return outs, nil
}

// VirtualUsage checks that cfg can run in virtual time; what cannot is a
// usage error (exit 2) that says why.
func VirtualUsage(cfg workload.Config) error {
	if err := vclock.CheckConfig(cfg); err != nil {
		if errors.Is(err, vclock.ErrNotVirtual) {
			return exit.UsageError(err)
		}
		return err
	}
	return nil
}

// FromChild maps an error of a virtual-clock child back to drill's exit
// codes: usage errors stay exit 2 and interruptions exit 130.
func FromChild(err error) error {
	if e, ok := errors.AsType[*vclock.Error](err); ok {
		switch e.Code {
		case 2:
			return exit.UsageError(err)
		case 130:
			return exit.ErrInterrupted
		}
	}
	return err
}

// VirtualRun runs one drill in virtual time (Virtual), recorded to path if
// set; an existing file at path is refused unless force is set. baseline,
// if set, is the drill's baseline over its whole run, carried on the
// summary (and journal) of a drill that completes. With show, the recording (a temporary one when path is "") is then
// shown (the replay dashboard) unless the run was interrupted; a show that
// ctx ends marks the outcome interrupted. A drill that did not start, or
// could not be recorded, is an error.
func VirtualRun(ctx context.Context, cfg workload.Config, hyps []scoring.Expr, path string, force bool,
	show func(context.Context, []event.Event) error, stderr io.Writer, baseline *scoring.BaselineSummary) (vclock.Outcome, error) {
	if err := journal.CheckRecord(path, force); err != nil {
		return vclock.Outcome{}, err
	}
	if path == "" && show != nil {
		f, err := os.CreateTemp("", "drill-virtual-*.jsonl")
		if err != nil {
			return vclock.Outcome{}, fmt.Errorf("recording the virtual run for the dashboard: %w", err)
		}
		f.Close()
		path = f.Name()
		defer os.Remove(path)
	}
	outs, err := virtual(ctx, []workload.Config{cfg}, hyps, []string{path}, []*scoring.BaselineSummary{baseline}, stderr)
	if err != nil {
		return vclock.Outcome{}, err
	}
	o := outs[0]
	if o.Status == event.StatusFailed {
		return o, fmt.Errorf("virtual run: %s", o.Error)
	}
	if o.Error != "" {
		return o, errors.New(o.Error)
	}
	if show == nil || o.Status == event.StatusInterrupted {
		return o, nil
	}
	j, err := journal.ReadFile(path)
	if err != nil {
		return o, fmt.Errorf("reading the virtual run back: %w", err)
	}
	if err := show(ctx, j.Events); err != nil {
		if ctx.Err() == nil {
			return o, fmt.Errorf("dashboard: %w", err)
		}
		o.Status = event.StatusInterrupted // Ctrl-C in the dashboard: exit 130, as drill replay
	}
	return o, nil
}
