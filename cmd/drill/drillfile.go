package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/sweeprun"
)

func newInitCmd() *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "init [FILE]",
		Short: "Write a commented example drill file (default drill.yaml; - for stdout)",
		Example: `  drill init
  drill init drills/monthly.yaml
  drill init - | less`,
		Args: cli.UsageArgs(cobra.MaximumNArgs(1)),
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
	var replayPath, replayModel string
	cmd := &cobra.Command{
		Use:   "validate [FILE]",
		Short: "Check a drill file and print the timeline it will play",
		Long: `Check a drill file strictly (unknown keys, types, durations, names, the
hypotheses and abort conditions) and print what it will play: the workload,
the runs, and each outage's windows on a time bar; for a chat drill, the
conversations, the policies' checks, the tool breakers and each incident's
window with the services' outages in it. Exits 0 when the file is
valid and this build can play it, 2 otherwise.

With --outage-from-journal JOURNAL [--model M], the outage is the fault
pattern the journal recorded, replayed as drill run --outage-from-journal
replays it: validate prints that timeline (one outage, "journal") in place
of the file's outages, or with no FILE against drill run's defaults.`,
		Example: `  drill validate examples/chapter.yaml
  drill validate --outage-from-journal runs/hang.jsonl
  drill validate examples/chapter.yaml --outage-from-journal proxy.jsonl --model gpt-5.4-mini`,
		Args: cli.UsageArgs(cobra.RangeArgs(0, 1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && replayPath == "" {
				return exit.Usagef("drill validate needs a drill file, or --outage-from-journal JOURNAL")
			}
			if replayPath == "" && cmd.Flags().Changed("model") {
				return exit.Usagef("--model goes with --outage-from-journal")
			}
			df := &drillfile.File{Path: "(none: drill run's defaults)"}
			if len(args) == 1 {
				var err error
				if df, err = drillfile.Load(args[0]); err != nil {
					return exit.UsageError(err)
				}
			}
			if len(df.Sweep) > 0 {
				// The sweep: section, checked as drill sweep -f checks it.
				if err := sweeprun.CheckFile(df.Path); err != nil {
					return err
				}
			}
			if df.Chat != nil {
				if replayPath != "" {
					return exit.Usagef("%s is a chat drill: --outage-from-journal replays a triage outage", df.Path)
				}
				return plan.WriteChatTimeline(cmd.OutOrStdout(), df)
			}
			if replayPath != "" {
				ws, notes, err := plan.JournalOutage(replayPath, replayModel)
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
	plan.RegisterJournalOutage(cmd.Flags(), &replayPath, &replayModel)
	return cmd
}

// replayedOutage names the outage drill validate shows for
// --outage-from-journal.
const replayedOutage = "journal"
