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

func newCompareCmd() *cobra.Command {
	var (
		f                 plan.CLI
		wf                cli.WatchFlags
		outages, policies []string
		jsonOut, force    bool
		record            string
		clock             cli.Clock
		tables            cli.TableFormat
		cf                plan.ChatFlags
	)
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
		RunE: func(cmd *cobra.Command, _ []string) error {
			if isChat, err := cf.Chosen(cmd.Flags()); err != nil {
				return err
			} else if isChat {
				if !cmd.Flags().Changed("policies") {
					policies = chat.PresetNames()
				}
				return chatrun.Compare(cli.EnvOf(cmd), chatrun.CompareOptions{Chat: cf, Policies: policies, Expect: f.Expect(), JSON: jsonOut,
					Tables: tables, Virtual: clock.Virtual(), Record: record, Force: force})
			}
			outages, err := f.CompareOutages(cmd.Flags(), outages)
			if err != nil {
				return err
			}
			sel := plan.Selection{Outages: outages, Policies: policies, OutagesFlag: "outages", PoliciesFlag: "policies"}
			p, err := cli.Prepare(cmd.Context(), cmd.Flags(), cmd.ErrOrStderr(), &f, sel, nil, clock, wf)
			if err != nil {
				return err
			}
			return cli.CloseWatch(p.Watch, compare(cmd, p.Configs, p.Checks, jsonOut, tables, clock.Virtual(), record, force, p.Watch))
		},
	}
	fs := cmd.Flags()
	fs.StringSliceVar(&outages, "outages", []string{"busy", "hang"}, "outage kinds to run: "+strings.Join(workload.OutageKinds(), ", "))
	fs.StringSliceVar(&policies, "policies", []string{"primary-only", "fallback", "breaker", "fail-fast"}, "policy presets to run")
	fs.BoolVar(&jsonOut, "json", false, "print a JSON array of run summaries")
	cli.RegisterTableFormat(fs, &tables)
	fs.StringVar(&record, "record", "", "record one journal per run in this directory, named after outage and policy")
	fs.BoolVar(&force, "force", false, "let --record overwrite journals already in the directory")
	cli.RegisterClock(fs, &clock, event.ClockReal)
	cf.Register(fs)
	f.Register(fs)
	f.RegisterFile(fs)
	wf.Register(fs)
	return cmd
}

// compare runs the drills at once (session.Compare) and prints their
// summaries in the order given; watch, if set, serves their metrics and
// receives alerts for them.
func compare(cmd *cobra.Command, cfgs []workload.Config, chk plan.Expectations, asJSON bool, tables cli.TableFormat, virtual bool, recordDir string, force bool, watch *session.Watch) error {
	if len(cfgs) > 0 {
		cli.Warn(cmd.ErrOrStderr(), cfgs[0].Warnings())
	}
	outs, err := session.Compare(cmd.Context(), cfgs, session.CompareOptions{Virtual: virtual, RecordDir: recordDir, Force: force, Inputs: cli.InputsOf(cmd.Flags()),
		Hypotheses: chk.Hypotheses, Abort: chk.Abort, Progress: cmd.ErrOrStderr(), Watch: watch})
	if err != nil {
		return err
	}
	var errs []error
	for i, o := range outs {
		if o.Error != "" {
			errs = append(errs, fmt.Errorf("run %d (%s / %s): %s", i+1, cfgs[i].OutageLabel(), cfgs[i].Policy.Name, o.Error))
		}
	}
	return cli.FirstErr(errors.Join(errs...), present.WriteJudged(cmd.OutOrStdout(), cmd.ErrOrStderr(), outs, chk, asJSON, tables))
}
