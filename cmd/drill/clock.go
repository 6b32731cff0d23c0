package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
	"github.com/drill-dev/drill/workload"
)

// evalBody is the name drill eval's virtual-clock body is registered under.
const evalBody = "eval"

func init() { vclock.Register(evalBody, evalInBubble) }

// clocks are the valid values of --clock.
var clocks = []string{event.ClockReal, event.ClockVirtual}

// clockValue is the --clock flag: real (default) or virtual. An unknown
// value is a flag error, so a usage error (exit 2) listing the valid ones.
type clockValue string

func (c *clockValue) String() string { return string(*c) }
func (c *clockValue) Type() string   { return "clock" }
func (c *clockValue) Set(s string) error {
	if !slices.Contains(clocks, s) {
		return fmt.Errorf("unknown clock %q (valid: %s)", s, strings.Join(clocks, ", "))
	}
	*c = clockValue(s)
	return nil
}

// virtual reports whether --clock virtual was given.
func (c clockValue) virtual() bool { return string(c) == event.ClockVirtual }

// registerClock adds --clock to fs.
func registerClock(fs *pflag.FlagSet, c *clockValue) {
	*c = event.ClockReal
	fs.Var(c, "clock", `real, or virtual: run against the built-in fake model in a testing/synctest bubble's fake time, `+
		`with the same SDK, retries, breakers and latencies, in seconds instead of minutes`)
}

// virtualUsage checks that cfg can run in virtual time; what cannot is a
// usage error that says why.
func virtualUsage(cfg workload.Config) error {
	if err := vclock.CheckConfig(cfg); err != nil {
		if errors.Is(err, vclock.ErrNotVirtual) {
			return exit.UsageError(err)
		}
		return err
	}
	return nil
}

// fromChild maps an error of a virtual-clock child back to drill's exit
// codes: usage errors stay exit 2 and interruptions exit 130.
func fromChild(err error) error {
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

// runVirtual is `drill run --clock virtual`: the drill runs to its end in
// virtual time, recorded when asked to or when it is to be shown; on a
// terminal the recording then plays in the replay dashboard at speed, and
// the summary is printed as for a real-time run.
func runVirtual(cmd *cobra.Command, cfg workload.Config, opts runOptions, speed float64) error {
	if err := virtualUsage(cfg); err != nil {
		return err
	}
	if err := noLiveAborts(opts.checks); err != nil {
		return err
	}
	if speed <= 0 {
		return exit.Usagef("--speed must be positive, got %v", speed)
	}
	job := vclock.Job{Config: cfg, Journal: opts.record, Hypotheses: exprTexts(opts.checks.hypotheses)}
	if job.Journal == "" && opts.tui {
		f, err := os.CreateTemp("", "drill-virtual-*.jsonl")
		if err != nil {
			return fmt.Errorf("recording the virtual run for the dashboard: %w", err)
		}
		f.Close()
		job.Journal = f.Name()
		defer os.Remove(job.Journal)
	}
	if job.Journal != "" {
		h, err := recordingHeader(cfg, time.Now())
		if err != nil {
			return err
		}
		job.Header = &h
	}
	ctx := cmd.Context()
	outs, err := vclock.Drills(ctx, []vclock.Job{job}, 0, cmd.ErrOrStderr())
	if err != nil {
		return fromChild(err)
	}
	o := outs[0]
	if o.Status == event.StatusFailed {
		return fmt.Errorf("virtual run: %s", o.Error)
	}
	if o.Error != "" {
		return errors.New(o.Error)
	}
	if opts.tui && o.Status != event.StatusInterrupted {
		j, err := journal.ReadFile(job.Journal)
		if err != nil {
			return fmt.Errorf("reading the virtual run back: %w", err)
		}
		if err := tui.Replay(ctx, j.Events, tui.ReplayOptions{Speed: speed, Hypotheses: opts.checks.hypotheses}); err != nil {
			if ctx.Err() == nil {
				return fmt.Errorf("dashboard: %w", err)
			}
			o.Status = event.StatusInterrupted // Ctrl-C in the dashboard: exit 130, as drill replay
		}
	}
	out := cmd.OutOrStdout()
	verdicts, verr := verdict(cmd.ErrOrStderr(), o.Summary, o.Status, opts.checks)
	if opts.json {
		if err := encodeJSON(out, judged{o.Summary, verdicts}); err != nil {
			return err
		}
		return verr
	}
	if err := printVerdicts(out, verdicts); err != nil {
		return err
	}
	if err := printSummary(out, o.Summary, false); err != nil {
		return err
	}
	writeFailedCalls(out, o.Failed)
	return verr
}

// compareVirtual is `drill compare --clock virtual`: the runs go through
// vclock.Drills in one bubble, each recorded in recordDir if set.
func compareVirtual(cmd *cobra.Command, cfgs []workload.Config, chk checks, asJSON bool, recordDir string) error {
	if err := noLiveAborts(chk); err != nil {
		return err
	}
	if recordDir != "" {
		if err := prepareRecordDir(recordDir); err != nil {
			return err
		}
	}
	now := time.Now()
	jobs := make([]vclock.Job, len(cfgs))
	for i, cfg := range cfgs {
		if err := virtualUsage(cfg); err != nil {
			return err
		}
		jobs[i].Config, jobs[i].Hypotheses = cfg, exprTexts(chk.hypotheses)
		if recordDir != "" {
			h, err := recordingHeader(cfg, now)
			if err != nil {
				return err
			}
			jobs[i].Journal, jobs[i].Header = journalPath(recordDir, i, cfg.Outage, cfg.Policy.Name), &h
		}
	}
	outs, err := vclock.Drills(cmd.Context(), jobs, 0, cmd.ErrOrStderr())
	if err != nil {
		return fromChild(err)
	}
	sums := make([]scoring.Summary, len(outs))
	statuses := make([]string, len(outs))
	var errs []error
	for i, o := range outs {
		sums[i], statuses[i] = o.Summary, o.Status
		if o.Error != "" {
			errs = append(errs, fmt.Errorf("run %d (%s / %s): %s", i+1, cfgs[i].Outage, cfgs[i].Policy.Name, o.Error))
		}
	}
	judgedErr := writeJudged(cmd, sums, statuses, chk, asJSON)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return judgedErr
}

// evalVirtual is `drill eval --clock virtual`: the evaluation runs in the
// bubble against the fake model's in-process transport.
func evalVirtual(cmd *cobra.Command, cfg evalConfig) error {
	if cfg.BaseURL != "" {
		return exit.Usagef("%w: it can only use the built-in fake model, not --base-url %s; use --clock real",
			vclock.ErrNotVirtual, cfg.BaseURL)
	}
	cfg.InProcess = true
	return fromChild(vclock.Call(cmd.Context(), evalBody, cfg, cmd.OutOrStdout(), cmd.ErrOrStderr()))
}

// evalInBubble is drill eval's body in the virtual-clock child.
func evalInBubble(ctx context.Context, in []byte, out io.Writer) error {
	var cfg evalConfig
	if err := json.Unmarshal(in, &cfg); err != nil {
		return fmt.Errorf("decoding the evaluation: %w", err)
	}
	if err := runEval(ctx, out, os.Stderr, cfg); err != nil {
		return exit.WithCode(err)
	}
	return nil
}

// exprTexts writes checks back as text, for the virtual clock's child.
func exprTexts(es []scoring.Expr) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.String())
	}
	return out
}
