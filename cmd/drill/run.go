package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/chatrun"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/present"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/tui"
	"github.com/drill-dev/drill/workload"
)

// runFlags are drill run's flags.
type runFlags struct {
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
}

func newRunCmd() *cobra.Command {
	rf := &runFlags{}
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
		RunE: func(cmd *cobra.Command, _ []string) error { return rf.run(cmd) },
	}
	d := workload.DefaultConfig()
	fs := cmd.Flags()
	fs.StringVar(&rf.outage, "outage", d.Outage, plan.OutageHelp())
	fs.StringVar(&rf.policy, "policy", d.Policy.Name, "policy preset: primary-only, backup-only, fallback, breaker, fail-fast")
	fs.BoolVar(&rf.jsonOut, "json", false, "print the summary as JSON (implies --no-tui)")
	fs.BoolVar(&rf.noTUI, "no-tui", false, "plain progress lines and summary instead of the dashboard")
	fs.StringVar(&rf.record, "record", "", "record the drill as a journal (JSON Lines) in this file")
	fs.BoolVar(&rf.force, "force", false, "let --record overwrite an existing journal")
	cli.RegisterClock(fs, &rf.clock, event.ClockReal)
	fs.Float64Var(&rf.speed, "speed", 1, "with --clock virtual on a terminal: speed of the replay dashboard that shows the finished run (1: as live)")
	rf.f.Register(fs)
	rf.f.RegisterFile(fs)
	rf.f.RegisterBaseline(fs)
	rf.wf.Register(fs)
	rf.cf.Register(fs)
	rf.ctl.Register(fs)
	return cmd
}

// run is drill run: one chat drill (chatrun.Run), or one triage drill
// planned, checked and run on the real clock or the virtual one.
func (rf *runFlags) run(cmd *cobra.Command) error {
	if err := cli.CheckSpeed(cmd.Flags(), rf.speed, rf.clock.Virtual()); err != nil {
		return err
	}
	if err := cli.NotInput(cmd.Flags(), "--record", rf.record); err != nil {
		return err
	}
	isChat, err := rf.cf.Chosen(cmd.Flags())
	if err != nil {
		return err
	}
	control, err := rf.ctl.Control(cli.ControlRefused(rf.clock.Virtual()))
	if err != nil {
		return err
	}
	show := !rf.noTUI && !rf.jsonOut && stdoutIsTerminal()
	if isChat {
		if !cmd.Flags().Changed("policy") {
			rf.policy = chat.PresetDefaults
		}
		return chatrun.Run(cli.EnvOf(cmd), chatrun.RunOptions{Chat: rf.cf, Policy: rf.policy, Expect: rf.f.Expect(), JSON: rf.jsonOut,
			Show: show, Virtual: rf.clock.Virtual(), Speed: rf.speed, Record: rf.record, Force: rf.force})
	}
	sel := plan.Selection{Outages: []string{rf.outage}, Policies: []string{rf.policy}, OutagesFlag: "outage", PoliciesFlag: "policy"}
	p, err := cli.Prepare(cmd.Context(), cmd.Flags(), cmd.ErrOrStderr(), &rf.f, sel, cmd.ErrOrStderr(), rf.clock, rf.wf)
	if err != nil {
		return err
	}
	baseline, err := rf.f.Baseline(cmd.Flags())
	if err != nil {
		return cli.CloseWatch(p.Watch, err)
	}
	opts := runOptions{json: rf.jsonOut, tui: show, record: rf.record, force: rf.force, checks: p.Checks, watch: p.Watch,
		baseline: baseline, control: control}
	if rf.clock.Virtual() {
		return runVirtual(cmd, p.Configs[0], opts, rf.speed)
	}
	return cli.CloseWatch(p.Watch, runDrill(cmd, p.Configs[0], opts))
}

// runOptions say how a drill is shown.
type runOptions struct {
	json   bool
	tui    bool
	record string            // journal path, or "" for none
	force  bool              // overwrite an existing journal
	checks plan.Expectations // hypotheses and abort conditions
	// watch serves the run's metrics and receives alerts (nil for none).
	watch *session.Watch
	// baseline is the policy played beside the run (--baseline).
	baseline string
	// control serves the control API (--control-listen; nil for none).
	control *session.Control
}

// runVirtual is `drill run --clock virtual`: the drill runs to its end in
// virtual time, recorded when asked to or when it is to be shown; on a
// terminal the recording then plays in the replay dashboard at speed, and
// the summary is printed as for a real-time run.
func runVirtual(cmd *cobra.Command, cfg workload.Config, opts runOptions, speed float64) error {
	if err := session.VirtualUsage(cfg); err != nil {
		return err
	}
	if err := session.NoLiveAborts(opts.checks.Abort); err != nil {
		return err
	}
	cli.Warn(cmd.ErrOrStderr(), cfg.Warnings())
	// The baseline plays first (about half a second), so the run's
	// summary and journal carry it.
	baseline, err := session.StartBaseline(cmd.Context(), cfg, opts.baseline)
	if err != nil {
		return exit.UsageError(err)
	}
	defer baseline.Close()
	whole := baseline.Whole(cmd.Context())
	if err := baseline.Err(); err != nil && cmd.Context().Err() == nil { // not when Ctrl-C stopped it too
		cli.Warn(cmd.ErrOrStderr(), []string{"no baseline: " + err.Error()})
	}
	var show func(context.Context, []event.Event) error
	if opts.tui {
		show = func(ctx context.Context, evs []event.Event) error {
			// The baseline's whole-run figures, as its journal records them.
			return tui.Replay(ctx, evs, tui.ReplayOptions{Speed: speed, Hypotheses: opts.checks.Hypotheses, Baseline: whole})
		}
	}
	o, err := session.VirtualRun(cmd.Context(), cfg, opts.checks.Hypotheses, opts.record, opts.force, show, cmd.ErrOrStderr(), whole)
	if err != nil {
		return err
	}
	cli.Warn(cmd.ErrOrStderr(), plain.AfterWarnings(o.Summary))
	return present.PrintJudged(cmd.OutOrStdout(), cmd.ErrOrStderr(), present.Finished{Summary: o.Summary, Status: o.Status, Failed: o.Failed}, opts.checks, opts.json)
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
	return present.PrintJudged(cmd.OutOrStdout(), cmd.ErrOrStderr(), present.Finished{Summary: res.Summary, Status: res.Status, Failed: res.Fold.FailedCalls()},
		opts.checks, opts.json)
}
