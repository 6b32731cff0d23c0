package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// checks are a drill's hypotheses (checked at the end) and abort
// conditions (checked live).
type checks struct {
	hypotheses []scoring.Expr
	abort      []scoring.Expr
}

// fileFlags are the drill-file flags of run and compare: -f and --expect.
type fileFlags struct {
	path   string
	expect []string
}

func (d *fileFlags) register(fs *pflag.FlagSet) {
	fs.StringVarP(&d.path, "file", "f", "", "read the drill from this drill file (flags given too override it)")
	fs.StringArrayVar(&d.expect, "expect", nil, "a hypothesis, `figure op value` (e.g. 'served.error == 0'); repeatable, added to the file's")
}

// plan resolves the drills to run: from the drill file with the flags that
// were given laid over it, or from the flags alone. outages and policies
// are the --outage/--policy (run) or --outages/--policies (compare)
// values. A non-nil single asks for one drill (drill run): the first, with
// a note on single when the file describes more.
func (d *fileFlags) plan(fs *pflag.FlagSet, f *drillFlags, outages, policies []string, outagesFlag, policiesFlag string, single io.Writer) ([]workload.Config, checks, error) {
	var c checks
	var cfgs []workload.Config
	if d.path == "" {
		for _, o := range outages {
			for _, p := range policies {
				cfg, err := f.config(fs, strings.TrimSpace(o), strings.TrimSpace(p))
				if err != nil {
					return nil, checks{}, err
				}
				cfgs = append(cfgs, cfg)
			}
		}
	} else {
		df, err := drillfile.Load(d.path)
		if err != nil {
			return nil, checks{}, exit.UsageError(err)
		}
		f.cost.overrideFile(df, fs)
		runs, err := plan.Layered(df, f.Flags, fs, plan.Selection{Outages: outages, Policies: policies, OutagesFlag: outagesFlag, PoliciesFlag: policiesFlag})
		if err != nil {
			return nil, checks{}, err
		}
		if single != nil && len(runs) > 1 {
			fmt.Fprintf(single, "drill: %s describes %d drills; running outage %s with policy %s (choose with --outage and --policy, or run them all with drill compare -f)\n",
				d.path, len(runs), runs[0].Outage.Name, runs[0].Policy.PolicyName())
			runs = runs[:1]
		}
		if c.hypotheses, c.abort, err = plan.Checks(df); err != nil {
			return nil, checks{}, exit.UsageError(err)
		}
		cfgs = plan.Configs(runs)
	}
	more, err := scoring.ParseExprs(d.expect)
	if err != nil {
		return nil, checks{}, exit.Usagef("--expect: %w", err)
	}
	c.hypotheses = append(c.hypotheses, more...)
	return cfgs, c, nil
}

// judged is a run summary with its hypotheses: the JSON `drill run --json`
// prints when the drill has hypotheses.
type judged scoring.Judged

// verdict judges one finished run and returns the error its exit code
// comes from: nil (0), a failed hypothesis or a run nothing answered (1),
// exit.ErrAborted (3) or exit.ErrInterrupted (130). Warnings go to stderr.
func verdict(stderr io.Writer, sum scoring.Summary, status string, c checks) ([]scoring.Verdict, error) {
	v, err := scoring.JudgeRun(sum, status, c.hypotheses)
	switch {
	case err != nil:
		return nil, err
	case v.Interrupted:
		return v.Verdicts, exit.ErrInterrupted
	case v.Aborted:
		return v.Verdicts, fmt.Errorf("%w %s", exit.ErrAborted, format.AbortReason(sum))
	case len(v.Failed) > 0:
		return v.Verdicts, errors.New(format.FailedHypotheses(sum, v))
	case v.NoModelAnswered && len(c.hypotheses) == 0:
		return v.Verdicts, errors.New(format.NoModelAnswered(sum))
	case v.NoModelAnswered:
		fmt.Fprintln(stderr, "drill: warning:", format.NoModelAnswered(sum))
	}
	return v.Verdicts, nil
}

// finishJudged writes a run's summary, status and judged hypotheses as
// the journal's last line and closes it. A nil writer (not recording) is
// fine.
func finishJudged(w *journal.Writer, sum scoring.Summary, status string, c checks) error {
	if w == nil {
		return nil
	}
	v, err := scoring.JudgeRun(sum, status, c.hypotheses)
	if err != nil {
		return err
	}
	if err := w.FinishJudged(sum, status, v.Verdicts); err != nil {
		return fmt.Errorf("recording the journal: %w", err)
	}
	return nil
}

// writeJudged judges finished runs and prints them: a JSON array of
// summaries with their hypotheses, or each run's PASS/FAIL table and then
// the comparison table. It returns the error of the most serious exit code
// across the runs (exit.Worst).
func writeJudged(cmd *cobra.Command, sums []scoring.Summary, statuses []string, c checks, asJSON bool) error {
	results := make([]scoring.Judged, len(sums))
	errs := make([]error, len(sums))
	for i := range sums {
		vs, err := verdict(cmd.ErrOrStderr(), sums[i], statuses[i], c)
		results[i], errs[i] = scoring.Judged{Summary: sums[i], Hypotheses: vs}, err
	}
	out := cmd.OutOrStdout()
	if asJSON {
		if err := encodeJSON(out, results); err != nil {
			return err
		}
	} else if err := format.JudgedRuns(out, results); err != nil {
		return err
	} else if err := report.WriteSummaryTable(out, sums); err != nil {
		return err
	}
	return exit.Worst(errs)
}

// noLiveAborts refuses abort conditions where nothing follows the run live
// (a virtual-clock run plays in a child process).
func noLiveAborts(c checks) error {
	if len(c.abort) > 0 {
		return exit.Usagef("abort conditions are checked live against the running drill, which --clock virtual does not allow: use --clock real")
	}
	return nil
}

// worst is exit.Worst: the error with the exit code that matters most.
func worst(errs []error) error { return exit.Worst(errs) }

// printVerdicts writes the hypotheses table (format.Verdicts).
func printVerdicts(w io.Writer, vs []scoring.Verdict) error { return format.Verdicts(w, vs) }

// encodeJSON writes v as indented JSON.
func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // hypotheses hold < and >
	return enc.Encode(v)
}

func newInitCmd() *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "init [FILE]",
		Short: "Write a commented example drill file (default drill.yaml; - for stdout)",
		Example: `  drill init
  drill init drills/monthly.yaml
  drill init - | less`,
		Args: usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := "drill.yaml"
			if len(args) == 1 {
				path = args[0]
			}
			if path == "-" {
				_, err := cmd.OutOrStdout().Write(drillfile.Template)
				return err
			}
			if err := drillfile.WriteTemplate(path, force); errors.Is(err, os.ErrExist) {
				return exit.Usagef("%s already exists (--force overwrites it)", path)
			} else if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s: check it with drill validate %s, run it with drill run -f %s\n", path, path, path)
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "overwrite FILE if it exists")
	return cmd
}

func newValidateCmd() *cobra.Command {
	var replay replayFlags
	cmd := &cobra.Command{
		Use:   "validate [FILE]",
		Short: "Check a drill file and print the timeline it will play",
		Long: `Check a drill file strictly (unknown keys, types, durations, names, the
hypotheses and abort conditions) and print what it will play: the workload,
the runs, and each outage's windows on a time bar. Exits 0 when the file is
valid and this build can play it, 2 otherwise.

With --outage-from-journal JOURNAL [--model M], the outage is the fault
pattern the journal recorded, replayed as drill run --outage-from-journal
replays it: validate prints that timeline (one outage, "journal") in place
of the file's outages, or with no FILE against drill run's defaults.`,
		Example: `  drill validate examples/chapter.yaml
  drill validate --outage-from-journal runs/hang.jsonl
  drill validate examples/chapter.yaml --outage-from-journal proxy.jsonl --model gpt-5.4-mini`,
		Args: usageArgs(cobra.RangeArgs(0, 1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && replay.path == "" {
				return exit.Usagef("drill validate needs a drill file, or --outage-from-journal JOURNAL")
			}
			if replay.path == "" && cmd.Flags().Changed("model") {
				return exit.Usagef("--model goes with --outage-from-journal")
			}
			df := &drillfile.File{Path: "(none: drill run's defaults)"}
			if len(args) == 1 {
				var err error
				if df, err = drillfile.Load(args[0]); err != nil {
					return exit.UsageError(err)
				}
			}
			if replay.path != "" {
				ws, notes, err := session.JournalOutage(replay.path, replay.model)
				if err != nil {
					return err
				}
				for _, n := range notes {
					fmt.Fprintln(cmd.ErrOrStderr(), "drill:", n)
				}
				df.Outages = nil
				for _, w := range ws {
					df.Outages = append(df.Outages, drillfile.Window{Name: replayedOutage, Window: w})
				}
			}
			if err := plan.WriteTimeline(cmd.OutOrStdout(), df); err != nil {
				return err
			}
			if _, err := plan.Runs(df); err != nil {
				return exit.UsageError(err)
			}
			return nil
		},
	}
	replay.register(cmd.Flags())
	return cmd
}

// replayedOutage names the outage drill validate shows for
// --outage-from-journal.
const replayedOutage = "journal"
