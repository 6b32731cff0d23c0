package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

func newRunCmd() *cobra.Command {
	var (
		f              drillFlags
		df             fileFlags
		outage, policy string
		jsonOut, noTUI bool
		record         string
		force          bool
		clock          clockValue
		speed          float64
	)
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run one drill: an outage against one policy",
		Long: `Run one drill. With a terminal on stdout it shows the live dashboard; with
--no-tui, --json or a pipe it writes a progress line a second to stderr and the
summary to stdout (a table, or JSON with --json).

--record FILE refuses to overwrite an existing file unless --force is given.`,
		Example: `  drill run --outage hang --policy fail-fast
  drill run --outage busy --policy breaker --no-tui --json
  drill run --outage hang --policy breaker --primary-timeout 3s --primary-retries 0
  drill run -f drill.yaml --expect 'served.error == 0'`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfgs, chk, err := df.plan(cmd.Flags(), &f, []string{outage}, []string{policy}, "outage", "policy", cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			f.warn(cmd.ErrOrStderr())
			if err := f.cost.ready(cmd, cfgs, !clock.virtual()); err != nil {
				return err
			}
			opts := runOptions{json: jsonOut, tui: !noTUI && !jsonOut && stdoutIsTerminal(), record: record, force: force, checks: chk}
			if clock.virtual() {
				return runVirtual(cmd, cfgs[0], opts, speed)
			}
			return runDrill(cmd, cfgs[0], opts)
		},
	}
	d := workload.DefaultConfig()
	fs := cmd.Flags()
	fs.StringVar(&outage, "outage", d.Outage, outageHelp())
	fs.StringVar(&policy, "policy", d.Policy.Name, "policy preset: primary-only, backup-only, fallback, breaker, fail-fast")
	fs.BoolVar(&jsonOut, "json", false, "print the summary as JSON (implies --no-tui)")
	fs.BoolVar(&noTUI, "no-tui", false, "plain progress lines and summary instead of the dashboard")
	fs.StringVar(&record, "record", "", "record the drill as a journal (JSON Lines) in this file")
	fs.BoolVar(&force, "force", false, "let --record overwrite an existing journal")
	registerClock(fs, &clock)
	fs.Float64Var(&speed, "speed", 1, "with --clock virtual on a terminal: speed of the replay dashboard that shows the finished run (1: as live)")
	f.register(fs)
	df.register(fs)
	return cmd
}

// runOptions say how a drill is shown.
type runOptions struct {
	json   bool
	tui    bool
	record string // journal path, or "" for none
	force  bool   // overwrite an existing journal
	checks checks // hypotheses and abort conditions
}

// startRun starts a drill, wiring the built-in fake model (in-process,
// seeded by the run's seed) when no endpoint is given, and logging the
// drill's prediction in its run_start for the summary's predicted_* keys.
func startRun(ctx context.Context, cfg workload.Config) (*workload.Run, error) {
	cfg.Predicted = predict.ForRun(cfg)
	if cfg.Endpoint.BaseURL == "" && cfg.Endpoint.Transport == nil {
		cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
	}
	return workload.Start(ctx, cfg)
}

// summarize folds a finished run's log into its summary.
func summarize(run *workload.Run) scoring.Summary {
	f := scoring.NewFold()
	f.AddLog(run.Log())
	return f.Summary()
}

// runDrill runs one drill to its end and prints its summary.
func runDrill(cmd *cobra.Command, cfg workload.Config, opts runOptions) error {
	ctx := cmd.Context()
	for _, w := range cfg.Warnings() {
		fmt.Fprintln(cmd.ErrOrStderr(), "drill: warning:", w)
	}
	if opts.record != "" && !opts.force {
		if err := refuseOverwrite(opts.record); err != nil {
			return err
		}
	}
	run, err := startRun(ctx, cfg)
	if err != nil {
		return exit.UsageError(err)
	}
	// The guard aborts the run through its log: the fold reads the reason
	// from run_end, so its own return is not needed here.
	go drillfile.Guard(run, opts.checks.abort, drillfile.GuardInterval)
	// The journal gets its summary line as soon as the run ends, even while
	// the dashboard stays open on the final state.
	recorded := make(chan error, 1)
	if opts.record == "" {
		recorded <- nil
	} else {
		rec, err := startRecording(opts.record, run)
		if err != nil {
			run.Stop()
			<-run.Done()
			return err
		}
		go func() {
			status := run.Wait()
			recorded <- finishJudged(rec, summarize(run), status, opts.checks)
		}()
	}
	if opts.tui {
		if err := runDashboard(ctx, run, opts.checks.hypotheses); err != nil {
			run.Stop()
			return errors.Join(fmt.Errorf("dashboard: %w", err), <-recorded)
		}
	} else {
		writeProgress(run, cmd.ErrOrStderr())
	}
	status := run.Wait()
	if err := <-recorded; err != nil {
		return err
	}
	fold := scoring.NewFold()
	fold.AddLog(run.Log())
	sum := fold.Summary()
	warnAfter(cmd.ErrOrStderr(), sum)
	verdicts, verr := verdict(cmd.ErrOrStderr(), sum, status, opts.checks)
	if opts.json {
		if err := encodeJSON(cmd.OutOrStdout(), judged{sum, verdicts}); err != nil {
			return err
		}
		return verr
	}
	if err := printVerdicts(cmd.OutOrStdout(), verdicts); err != nil {
		return err
	}
	if err := printSummary(cmd.OutOrStdout(), sum, false); err != nil {
		return err
	}
	printFailedCalls(cmd.OutOrStdout(), fold)
	return verr
}

// warnAfter warns about a finished drill that did not do what it was set
// up to: an injected outage that never started.
func warnAfter(w io.Writer, s scoring.Summary) {
	if s.Outage != "" && s.Outage != workload.OutageNone && len(s.OutageWindows) == 0 {
		fmt.Fprintf(w, "drill: warning: the drill ended at %s, before its %s outage started: no outage was injected\n",
			format.Secs(s.WallS), s.Outage)
	}
}

// writeProgress writes one line a second until the run ends: elapsed, sent,
// answered, breaker state, calls to the broken model's rung.
func writeProgress(run *workload.Run, w io.Writer) {
	cur := run.Log().Cursor()
	fold := scoring.NewFold()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-run.Done():
			fold.AddAll(cur.Poll())
			fmt.Fprintln(w, format.Progress(fold, time.Since(run.Log().Start())))
			return
		case <-tick.C:
			fold.AddAll(cur.Poll())
			fmt.Fprintln(w, format.Progress(fold, time.Since(run.Log().Start())))
		}
	}
}

// printSummary prints a run summary as a table, or as JSON.
func printSummary(w io.Writer, s scoring.Summary, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(k, v string) { fmt.Fprintf(tw, "%s\t%s\n", k, v) }
	basis := format.Basis(s)
	row("status", format.Status(s))
	row("outage", format.Text(s.Outage)+outageWindows(s))
	row("policy", format.Text(s.Policy))
	row("time-limit scope", format.Text(s.TimeLimitScope))
	if len(s.Overrides) > 0 {
		row("overrides", overrides(s.Overrides))
	}
	served := fmt.Sprintf("%s of %d answered", format.Served(s.Served), s.EmailsAnswered)
	if s.Served.Cancelled > 0 {
		served += fmt.Sprintf(", %d cancelled by the run's end", s.Served.Cancelled)
	}
	row("served (primary/backup/canned/error)", served)
	row("all 4 right (of emails answered)", format.All4(s))
	row("wait during outage (median / p95)"+basis, format.Seconds(s.MedianWaitOutageS)+" / "+format.Seconds(s.P95WaitOutageS))
	if s.Followed.Email != 0 {
		row(fmt.Sprintf("email %d", s.Followed.Email), followedLine(s.Followed))
	}
	row("calls to the broken model, outage"+basis, fmt.Sprint(s.CallsToBrokenOutage))
	row("breaker first open (after outage start)"+basis, format.Seconds(s.BreakerFirstOpenS))
	row("breaker opens", fmt.Sprint(s.BreakerOpens))
	row("primary back (after outage end)"+basis, format.Seconds(s.PrimaryBackS))
	for _, o := range s.Observed {
		row("observed failures, "+o.Rung, fmt.Sprintf("%s %s, %d failed calls, %d calls in window, breaker first open %s",
			format.Text(o.Model), format.Span(o.StartS, o.EndS), o.FailedAttempts, o.CallsInWindow,
			format.Seconds(o.BreakerFirstOpenS)))
	}
	format.CostRows(row, s)
	row("wall time", format.Secs(s.WallS))
	return tw.Flush()
}

// outageWindows describes the injected windows: " (15.0–40.0 s)".
func outageWindows(s scoring.Summary) string {
	var ws []string
	for _, w := range s.OutageWindows {
		d := "from " + format.Secs(w.StartS) + ", still on at the end"
		if w.EndS != nil {
			d = format.Span(w.StartS, *w.EndS)
		}
		if w.ByHand {
			d += " by hand"
		}
		ws = append(ws, d)
	}
	if len(ws) == 0 {
		if s.Outage != "" && s.Outage != workload.OutageNone {
			return " (never started)"
		}
		return ""
	}
	return " (" + strings.Join(ws, ", ") + ")"
}

func overrides(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, " ")
}

// followedLine is the followed email's fate with when it was sent.
func followedLine(f scoring.Followed) string {
	s := format.Followed(f)
	if f.SentS != nil {
		s += " (sent at " + format.Seconds(f.SentS) + ")"
	}
	return s
}

// printFailedCalls lists, by rung and outcome, the emails a rung did not
// answer (its calls, retries included, failed, or its breaker was open)
// (connection errors against an unreachable endpoint show up here).
func printFailedCalls(w io.Writer, fold *scoring.Fold) {
	writeFailedCalls(w, fold.FailedCalls())
}

// writeFailedCalls lists failed calls counted per rung and outcome.
func writeFailedCalls(w io.Writer, failed map[string]map[event.Outcome]int) {
	for _, rung := range slices.Sorted(maps.Keys(failed)) {
		var parts []string
		for _, o := range slices.Sorted(maps.Keys(failed[rung])) {
			parts = append(parts, fmt.Sprintf("%s ×%d", o, failed[rung][o]))
		}
		fmt.Fprintf(w, "emails %s did not answer: %s\n", rung, strings.Join(parts, ", "))
	}
}
