package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/chatrun"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/present"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/workload"
)

// compareFlags are drill compare's flags.
type compareFlags struct {
	f                 plan.CLI
	wf                cli.WatchFlags
	outages, policies []string
	jsonOut, force    bool
	record            string
	clock             cli.Clock
	tables            cli.TableFormat
	chat              plan.ChatFlags
}

func newCompareCmd() *cobra.Command {
	cf := &compareFlags{}
	cmd := &cobra.Command{
		Use:   "compare",
		Short: "Run every outage × policy combination at once and print the lab drill's table of them",
		Long: `Run every combination of outage and policy concurrently, each with its own fake
model and clients, so the runs take about as long as one. Prints the table as
aligned text on a terminal and Markdown in a file or a pipe (--format text|md
chooses), or a JSON array of run summaries with --json (each with the
overrides it ran with). --record DIR refuses to overwrite journals already
there unless --force is given.`,
		Example: `  drill compare
  drill compare --outages hang --policies breaker,fail-fast --primary-timeout 2s
  drill compare -f examples/chapter.yaml
  drill compare --workload chat --clock virtual --incident mixed,mostly-slow --seeds 1..5`,
		Args: cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return cf.run(cmd) },
	}
	fs := cmd.Flags()
	fs.StringSliceVar(&cf.outages, "outages", []string{"busy", "hang"}, "outage kinds to run: "+strings.Join(workload.OutageKinds(), ", "))
	fs.StringSliceVar(&cf.policies, "policies", []string{"primary-only", "fallback", "breaker", "fail-fast"}, "policy presets to run")
	fs.BoolVar(&cf.jsonOut, "json", false, "print a JSON array of run summaries")
	cli.RegisterTableFormat(fs, &cf.tables)
	fs.StringVar(&cf.record, "record", "", "record one journal per run in this directory, named after outage and policy")
	fs.BoolVar(&cf.force, "force", false, "let --record overwrite journals already in the directory")
	cli.RegisterClock(fs, &cf.clock, event.ClockReal)
	cf.chat.Register(fs)
	cf.f.Register(fs)
	cf.f.RegisterFile(fs)
	cf.wf.Register(fs)
	return cmd
}

// run is drill compare: the chat workload's (chatrun.Compare), or every
// outage × policy planned, checked and run at once.
func (cf *compareFlags) run(cmd *cobra.Command) error {
	if isChat, err := cf.chat.Chosen(cmd.Flags()); err != nil {
		return err
	} else if isChat {
		policies := cf.policies
		if !cmd.Flags().Changed("policies") {
			policies = chat.PresetNames()
		}
		return chatrun.Compare(cli.EnvOf(cmd), chatrun.CompareOptions{Chat: cf.chat, Policies: policies, Expect: cf.f.Expect(), JSON: cf.jsonOut,
			Tables: cf.tables, Virtual: cf.clock.Virtual(), Record: cf.record, Force: cf.force})
	}
	outages, err := cf.f.CompareOutages(cmd.Flags(), cf.outages)
	if err != nil {
		return err
	}
	sel := plan.Selection{Outages: outages, Policies: cf.policies, OutagesFlag: "outages", PoliciesFlag: "policies"}
	p, err := cli.Prepare(cmd.Context(), cmd.Flags(), cmd.ErrOrStderr(), &cf.f, sel, nil, cf.clock, cf.wf)
	if err != nil {
		return err
	}
	return cli.CloseWatch(p.Watch, cf.compare(cmd, p))
}

// compare runs the prepared drills at once (session.Compare) and prints
// their summaries in the order given; the watch, if any, serves their
// metrics and receives alerts for them.
func (cf *compareFlags) compare(cmd *cobra.Command, p cli.Prepared) error {
	cfgs, chk := p.Configs, p.Checks
	if len(cfgs) > 0 {
		cli.Warn(cmd.ErrOrStderr(), cfgs[0].Warnings())
	}
	outs, err := session.Compare(cmd.Context(), cfgs, session.CompareOptions{Virtual: cf.clock.Virtual(), RecordDir: cf.record, Force: cf.force,
		Inputs: cli.InputsOf(cmd.Flags()), Hypotheses: chk.Hypotheses, Abort: chk.Abort, Progress: cmd.ErrOrStderr(), Watch: p.Watch})
	if err != nil {
		return err
	}
	var errs []error
	for i, o := range outs {
		if o.Error != "" {
			errs = append(errs, fmt.Errorf("run %d (%s / %s): %s", i+1, cfgs[i].OutageLabel(), cfgs[i].Policy.Name, o.Error))
		}
	}
	return cli.FirstErr(errors.Join(errs...), present.WriteJudged(cmd.OutOrStdout(), cmd.ErrOrStderr(), outs, chk, cf.jsonOut, cf.tables))
}
