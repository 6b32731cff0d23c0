package main

import (
	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

func newRunCmd() *cobra.Command {
	var (
		f              plan.CLI
		wf             cli.WatchFlags
		outage, policy string
		jsonOut, noTUI bool
		record         string
		force          bool
		clock          cli.Clock
		speed          float64
		cf             plan.ChatFlags
		ctl            cli.ControlFlags
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
  drill run -f drill.yaml --expect 'served.error == 0'
  drill run --workload chat --policy agent-all-checks --clock virtual --record chat.jsonl`,
		Args: cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cli.CheckSpeed(cmd.Flags(), speed, clock.Virtual()); err != nil {
				return err
			}
			if err := cli.NotInput(cmd.Flags(), "--record", record); err != nil {
				return err
			}
			isChat, err := cf.Chosen(cmd.Flags())
			if err != nil {
				return err
			}
			control, err := ctl.Control(cli.ControlRefused(clock.Virtual()))
			if err != nil {
				return err
			}
			if isChat {
				return runChat(cmd, cf, f.Expect(), policy, jsonOut, clock.Virtual(), !noTUI && !jsonOut && stdoutIsTerminal(), speed, record, force)
			}
			sel := plan.Selection{Outages: []string{outage}, Policies: []string{policy}, OutagesFlag: "outage", PoliciesFlag: "policy"}
			p, err := cli.Prepare(cmd.Context(), cmd.Flags(), cmd.ErrOrStderr(), &f, sel, cmd.ErrOrStderr(), clock, wf)
			if err != nil {
				return err
			}
			baseline, err := f.Baseline(cmd.Flags())
			if err != nil {
				return cli.CloseWatch(p.Watch, err)
			}
			opts := runOptions{json: jsonOut, tui: !noTUI && !jsonOut && stdoutIsTerminal(), record: record, force: force, checks: p.Checks, watch: p.Watch,
				baseline: baseline, control: control}
			if clock.Virtual() {
				return runVirtual(cmd, p.Configs[0], opts, speed)
			}
			return cli.CloseWatch(p.Watch, runDrill(cmd, p.Configs[0], opts))
		},
	}
	d := workload.DefaultConfig()
	fs := cmd.Flags()
	fs.StringVar(&outage, "outage", d.Outage, plan.OutageHelp())
	fs.StringVar(&policy, "policy", d.Policy.Name, "policy preset: primary-only, backup-only, fallback, breaker, fail-fast")
	fs.BoolVar(&jsonOut, "json", false, "print the summary as JSON (implies --no-tui)")
	fs.BoolVar(&noTUI, "no-tui", false, "plain progress lines and summary instead of the dashboard")
	fs.StringVar(&record, "record", "", "record the drill as a journal (JSON Lines) in this file")
	fs.BoolVar(&force, "force", false, "let --record overwrite an existing journal")
	cli.RegisterClock(fs, &clock, event.ClockReal)
	fs.Float64Var(&speed, "speed", 1, "with --clock virtual on a terminal: speed of the replay dashboard that shows the finished run (1: as live)")
	f.Register(fs)
	f.RegisterFile(fs)
	f.RegisterBaseline(fs)
	wf.Register(fs)
	cf.Register(fs)
	ctl.Register(fs)
	return cmd
}

// runOptions say how a drill is shown.
type runOptions struct {
	json   bool
	tui    bool
	record string // journal path, or "" for none
	force  bool   // overwrite an existing journal
	checks checks // hypotheses and abort conditions
	// watch serves the run's metrics and receives alerts (nil for none).
	watch *session.Watch
	// baseline is the policy played beside the run (--baseline).
	baseline string
	// control serves the control API (--control-listen; nil for none).
	control *session.Control
}

// runDrill runs one drill to its end (session.Drill) and prints its summary.
func runDrill(cmd *cobra.Command, cfg workload.Config, opts runOptions) error {
	cli.Warn(cmd.ErrOrStderr(), cfg.Warnings())
	sopts := session.Options{Journal: opts.record, Force: opts.force, Hypotheses: opts.checks.Hypotheses,
		Abort: opts.checks.Abort, Progress: cmd.ErrOrStderr(), Watch: opts.watch, Baseline: opts.baseline,
		Control: opts.control}
	early := false
	if opts.tui {
		sopts.Show = dashboard(opts.checks.Hypotheses, &early)
	}
	res, err := session.Drill(cmd.Context(), cfg, sopts)
	if err != nil {
		return err
	}
	if early && res.Status == event.StatusInterrupted && cmd.Context().Err() == nil {
		// q ended the drill early: a normal end, judged on what ran (exit
		// 0 or 1), not an interruption (130, Ctrl-C or SIGTERM).
		res.Status = event.StatusCompleted
	}
	if err := res.Baseline.Err(); err != nil && cmd.Context().Err() == nil { // not when Ctrl-C stopped it too
		cli.Warn(cmd.ErrOrStderr(), []string{"no baseline: " + err.Error()})
	}
	cli.Warn(cmd.ErrOrStderr(), plain.AfterWarnings(res.Summary))
	return printJudged(cmd, res.Summary, res.Status, opts.checks, res.Fold.FailedCalls(), opts.json)
}

// printJudged judges a finished run (verdict) and prints it: as JSON with
// its hypotheses, or as printRun does. The error is the run's exit code.
func printJudged(cmd *cobra.Command, sum scoring.Summary, status string, chk checks,
	failed map[string]map[event.Outcome]int, asJSON bool) error {
	verdicts, verr := verdict(cmd.ErrOrStderr(), sum, status, chk)
	if asJSON {
		return cli.FirstErr(plain.JSON(cmd.OutOrStdout(), judged{sum, verdicts}), verr)
	}
	return cli.FirstErr(printRun(cmd, sum, verdicts, failed), verr)
}

// printRun prints a finished run: its hypotheses, its summary table and
// the calls that did not answer.
func printRun(cmd *cobra.Command, sum scoring.Summary, verdicts []scoring.Verdict, failed map[string]map[event.Outcome]int) error {
	out := cmd.OutOrStdout()
	if err := plain.Verdicts(out, verdicts); err != nil {
		return err
	}
	if err := plain.SummaryWidth(out, sum, session.TerminalWidth(out)); err != nil {
		return err
	}
	plain.FailedCalls(out, failed)
	return nil
}
