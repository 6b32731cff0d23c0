package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/report"
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
// were given overriding it, or from the flags alone. outages and policies
// are the --outage/--policy (run) or --outages/--policies (compare)
// values. A non-nil single asks for one drill (drill run): the first, with
// a note on single when the file describes more.
func (d *fileFlags) plan(fs *pflag.FlagSet, f *drillFlags, outages, policies []string, outagesFlag, policiesFlag string, single io.Writer) ([]workload.Config, checks, error) {
	if d.path == "" {
		var cfgs []workload.Config
		for _, o := range outages {
			for _, p := range policies {
				cfg, err := f.config(fs, strings.TrimSpace(o), strings.TrimSpace(p))
				if err != nil {
					return nil, checks{}, err
				}
				cfgs = append(cfgs, cfg)
			}
		}
		hyps, err := scoring.ParseExprs(d.expect)
		if err != nil {
			return nil, checks{}, exit.Usagef("--expect: %w", err)
		}
		return cfgs, checks{hypotheses: hyps}, nil
	}
	df, err := drillfile.Load(d.path)
	if err != nil {
		return nil, checks{}, exit.UsageError(err)
	}
	overrideFile(df, fs, f)
	if fs.Changed(outagesFlag) {
		if df.Outages, err = selectOutages(df, fs, f, outages); err != nil {
			return nil, checks{}, err
		}
	}
	if len(f.faults.settings) > 0 {
		if len(df.Outages) == 0 {
			return nil, checks{}, exit.Usagef("--fault sets the outage's parameters, and %s plays no outage", d.path)
		}
		for i := range df.Outages {
			df.Outages[i].Settings = f.faults.settings
		}
	}
	if fs.Changed(policiesFlag) {
		df.Policies = selectPolicies(df, policies)
	}
	overridePolicies(df, fs)
	if err := df.Check(); err != nil {
		return nil, checks{}, exit.UsageError(fmt.Errorf("with the flags given:\n%w", err))
	}
	runs, err := df.Plan()
	if err != nil {
		return nil, checks{}, exit.UsageError(err)
	}
	if single != nil && len(runs) > 1 {
		fmt.Fprintf(single, "drill: %s describes %d drills; running outage %s with policy %s (choose with --outage and --policy, or run them all with drill compare -f)\n",
			d.path, len(runs), runs[0].Outage.Name, runs[0].Policy.PolicyName())
		runs = runs[:1]
	}
	var c checks
	if c.hypotheses, c.abort, err = df.Checks(); err != nil {
		return nil, checks{}, exit.UsageError(err)
	}
	more, err := scoring.ParseExprs(d.expect)
	if err != nil {
		return nil, checks{}, exit.Usagef("--expect: %w", err)
	}
	c.hypotheses = append(c.hypotheses, more...)
	cfgs := make([]workload.Config, len(runs))
	for i, r := range runs {
		cfgs[i] = r.Config
	}
	return cfgs, c, nil
}

// overrideFile applies the workload and model flags that were given.
func overrideFile(df *drillfile.File, fs *pflag.FlagSet, f *drillFlags) {
	w := &df.Workload
	if fs.Changed("emails") {
		w.Emails = drillfile.IntOf(f.emails)
	}
	if fs.Changed("emails-file") {
		path, err := filepath.Abs(f.emailsFile) // the flag is relative to here, not to the drill file
		if err != nil {
			path = f.emailsFile
		}
		w.EmailsFile = &path
	}
	if fs.Changed("rate") {
		w.Rate = &f.rate
	}
	if fs.Changed("seed") {
		w.Seed = drillfile.IntOf(f.seed)
	}
	if fs.Changed("follow") {
		w.Follow = drillfile.IntOf(f.follow)
	}
	if fs.Changed("max-duration") {
		d := drillfile.Duration(f.maxDuration)
		w.MaxDuration = &d
	}
	if fs.Changed("primary-model") {
		df.Models.Primary.Model = f.primaryModel
	}
	if fs.Changed("backup-model") {
		df.Models.Backup.Model = f.backupModel
	}
	if fs.Changed("base-url") {
		df.Models.Primary.BaseURL, df.Models.Backup.BaseURL = f.baseURL, f.baseURL
		df.Models.Primary.APIKeyEnv, df.Models.Backup.APIKeyEnv = "", ""
	}
	if fs.Changed("stream") {
		w.Stream = f.faults.stream
	}
	f.cost.overrideFile(df, fs)
	if fs.Changed("outage-from") || fs.Changed("outage-to") {
		for i := range df.Outages {
			if fs.Changed("outage-from") {
				df.Outages[i].From = drillfile.Duration(f.outageFrom)
			}
			if fs.Changed("outage-to") {
				df.Outages[i].To = drillfile.Duration(f.outageTo)
			}
		}
	}
}

// selectOutages keeps the file's outages named; a name the file does not
// have is a fault kind, played from --outage-from to --outage-to ("none":
// no outage).
func selectOutages(df *drillfile.File, fs *pflag.FlagSet, f *drillFlags, names []string) ([]drillfile.Window, error) {
	var out []drillfile.Window
	for _, n := range names {
		n = strings.TrimSpace(n)
		found := false
		for _, w := range df.Outages {
			if w.OutageName() == n {
				out, found = append(out, w), true
			}
		}
		if found || n == workload.OutageNone {
			continue
		}
		if !slices.Contains(inject.Kinds(), n) {
			var have []string
			for _, o := range df.Scenarios() {
				have = append(have, o.Name)
			}
			return nil, exit.Usagef("%s has no outage %q (it has: %s) and %q is no fault kind (valid: %s)",
				df.Path, n, strings.Join(have, ", "), n, strings.Join(inject.Kinds(), ", "))
		}
		d := workload.DefaultConfig()
		from, to := d.OutageFrom, d.OutageTo
		if fs.Changed("outage-from") {
			from = f.outageFrom
		}
		if fs.Changed("outage-to") {
			to = f.outageTo
		}
		out = append(out, drillfile.Window{Kind: n, From: drillfile.Duration(from), To: drillfile.Duration(to)})
	}
	return out, nil
}

// selectPolicies keeps the file's policies named; a name the file does not
// have is a preset.
func selectPolicies(df *drillfile.File, names []string) []drillfile.Policy {
	var out []drillfile.Policy
	for _, n := range names {
		n = strings.TrimSpace(n)
		i := slices.IndexFunc(df.PolicyList(), func(p drillfile.Policy) bool { return p.PolicyName() == n })
		if i >= 0 {
			out = append(out, df.PolicyList()[i])
		} else {
			out = append(out, drillfile.Policy{Preset: n})
		}
	}
	return out
}

// overridePolicies applies the policy flags that were given to every
// policy of the file: a flag replaces the file's value.
func overridePolicies(df *drillfile.File, fs *pflag.FlagSet) {
	o := flagOverrides(fs)
	pols := df.PolicyList()
	for i := range pols {
		pols[i].Overrides = pols[i].Overrides.Merge(o)
	}
	df.Policies = pols
}

// judged is a run summary with its hypotheses: the JSON `drill run --json`
// prints when the drill has hypotheses.
type judged struct {
	scoring.Summary
	Hypotheses []scoring.Verdict `json:"hypotheses,omitempty"`
}

// verdict judges one finished run and returns the error its exit code
// comes from: nil (0), a failed hypothesis or a run nothing answered (1),
// exit.ErrAborted (3) or exit.ErrInterrupted (130). Warnings go to stderr.
func verdict(stderr io.Writer, sum scoring.Summary, status string, c checks) ([]scoring.Verdict, error) {
	figs, err := scoring.FiguresOf(sum)
	if err != nil {
		return nil, err
	}
	vs := scoring.Judge(figs, c.hypotheses)
	switch status {
	case event.StatusInterrupted:
		return vs, exit.ErrInterrupted
	case event.StatusAborted:
		return vs, fmt.Errorf("%w %s", exit.ErrAborted, format.AbortReason(sum))
	}
	if failed := scoring.Failed(vs); len(failed) > 0 {
		var lines []string
		for _, v := range failed {
			lines = append(lines, fmt.Sprintf("  %s (measured %s)", v.Expr, scoring.FormatValue(v.Value)))
		}
		return vs, fmt.Errorf("%s/%s: %d of %d hypotheses failed:\n%s", sum.Outage, sum.Policy, len(failed), len(vs), strings.Join(lines, "\n"))
	}
	if sum.Served.Total() > 0 && sum.Served.Primary+sum.Served.Backup == 0 {
		msg := fmt.Sprintf("%s/%s: no model answered: every email was served by the canned reply or failed (is the endpoint right?)", sum.Outage, sum.Policy)
		if len(c.hypotheses) == 0 {
			return vs, errors.New(msg)
		}
		fmt.Fprintln(stderr, "drill: warning:", msg)
	}
	return vs, nil
}

// finishJudged writes a run's summary, status and judged hypotheses as
// the journal's last line and closes it. A nil writer (not recording) is
// fine.
func finishJudged(w *journal.Writer, sum scoring.Summary, status string, c checks) error {
	if w == nil {
		return nil
	}
	figs, err := scoring.FiguresOf(sum)
	if err != nil {
		return err
	}
	if err := w.FinishJudged(sum, status, scoring.Judge(figs, c.hypotheses)); err != nil {
		return fmt.Errorf("recording the journal: %w", err)
	}
	return nil
}

// writeJudged judges finished runs and prints them: a JSON array of
// summaries with their hypotheses, or each run's PASS/FAIL table and then
// the comparison table. It returns the error of the most serious exit code
// across the runs (see worst).
func writeJudged(cmd *cobra.Command, sums []scoring.Summary, statuses []string, c checks, asJSON bool) error {
	results := make([]judged, len(sums))
	errs := make([]error, len(sums))
	for i := range sums {
		vs, err := verdict(cmd.ErrOrStderr(), sums[i], statuses[i], c)
		results[i], errs[i] = judged{sums[i], vs}, err
	}
	out := cmd.OutOrStdout()
	if asJSON {
		if err := encodeJSON(out, results); err != nil {
			return err
		}
		return worst(errs)
	}
	for _, s := range results {
		if len(s.Hypotheses) > 0 {
			fmt.Fprintf(out, "%s / %s\n", s.Outage, s.Policy)
			if err := printVerdicts(out, s.Hypotheses); err != nil {
				return err
			}
		}
	}
	if err := report.WriteSummaryTable(out, sums); err != nil {
		return err
	}
	return worst(errs)
}

// noLiveAborts refuses abort conditions where nothing follows the run live
// (a virtual-clock run plays in a child process).
func noLiveAborts(c checks) error {
	if len(c.abort) > 0 {
		return exit.Usagef("abort conditions are checked live against the running drill, which --clock virtual does not allow: use --clock real")
	}
	return nil
}

// worst picks the error with the exit code that matters most across runs:
// interrupted, aborted, then failed.
func worst(errs []error) error {
	for _, target := range []error{exit.ErrInterrupted, exit.ErrAborted} {
		for _, err := range errs {
			if errors.Is(err, target) {
				return err
			}
		}
	}
	return errors.Join(errs...)
}

// printVerdicts writes the hypotheses table: PASS or FAIL, the check, the
// measured value.
func printVerdicts(w io.Writer, vs []scoring.Verdict) error {
	if len(vs) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "hypothesis\tresult\tmeasured")
	for _, v := range vs {
		res := "PASS"
		if !v.Pass {
			res = "FAIL"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", v.Expr, res, scoring.FormatValue(v.Value))
	}
	fmt.Fprintln(tw)
	return tw.Flush()
}

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
			flag := os.O_WRONLY | os.O_CREATE | os.O_EXCL
			if force {
				flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
			}
			out, err := os.OpenFile(path, flag, 0o644)
			if errors.Is(err, os.ErrExist) {
				return exit.Usagef("%s already exists (--force overwrites it)", path)
			}
			if err != nil {
				return exit.UsageError(fmt.Errorf("writing the drill file: %w", err))
			}
			if _, err := out.Write(drillfile.Template); err != nil {
				_ = out.Close()
				return fmt.Errorf("writing %s: %w", path, err)
			}
			if err := out.Close(); err != nil {
				return fmt.Errorf("writing %s: %w", path, err)
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
				ws, notes, err := outageFromJournal(replay.path, replay.model)
				if err != nil {
					return err
				}
				for _, n := range notes {
					fmt.Fprintln(cmd.ErrOrStderr(), "drill:", n)
				}
				df.Outages = nil
				for _, w := range ws {
					df.Outages = append(df.Outages, drillfile.FileWindow(replayedOutage, w))
				}
			}
			if err := df.WriteTimeline(cmd.OutOrStdout()); err != nil {
				return err
			}
			if _, err := df.Plan(); err != nil {
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
