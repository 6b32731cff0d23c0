package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/proxyfleet"
	"github.com/drill-dev/drill/scoring"
)

func newWatchCmd() *cobra.Command {
	var fleet string
	var noTUI bool
	cmd := &cobra.Command{
		Use:   "watch redis://HOST:PORT/DB --fleet NAME",
		Short: "Watch a fleet of drill proxies live: per-member rows and the fleet's totals",
		Long: `watch follows a proxy fleet's events in Redis (drill proxy --coordinate) and
shows one row per member (requests, failed, faulted, the outage it plays, its
link to Redis, held and dropped events, running, ended or lost) and the fleet's
totals, all from one fold. It marks members whose heartbeat expired as lost.
With --no-tui, or without a terminal, it prints the table once and exits;
otherwise it prints it again as it changes, until interrupted.`,
		Example: `  drill watch redis://127.0.0.1:6379/0 --fleet staging
  drill watch redis://redis:6379/0 --fleet staging --no-tui`,
		Args: cli.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := proxyfleet.CheckArgs(args[0], fleet); err != nil {
				return err
			}
			return watchFleet(cmd.Context(), args[0], fleet, noTUI || !stdoutIsTerminal(), cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&fleet, "fleet", "", "the fleet's name, as its members' --fleet")
	cmd.Flags().BoolVar(&noTUI, "no-tui", false, "print the fleet's table once and exit (the default when stdout is not a terminal)")
	return cmd
}

// watchFleet prints the fleet's table once (once true) or as it changes.
func watchFleet(ctx context.Context, url, fleet string, once bool, w io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if once {
		f, err := proxyfleet.Snapshot(ctx, url, fleet)
		if err != nil {
			return err
		}
		return plain.ProxyFleet(w, fleet, f)
	}
	return proxyfleet.Follow(ctx, url, fleet, time.Second, func(f *scoring.ProxyFleetFold) {
		fmt.Fprint(w, "\x1b[H\x1b[2J") // a fresh screen for each table
		_ = plain.ProxyFleet(w, fleet, f)
	})
}

func newJournalCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "journal",
		Short: "Journals gathered from elsewhere: a proxy fleet's, from Redis",
		Args:  cli.UsageArgs(cobra.NoArgs),
	}
	var fleet, out string
	var force bool
	pull := &cobra.Command{
		Use:   "pull redis://HOST:PORT/DB --fleet NAME -o FILE",
		Short: "Write a proxy fleet's run, gathered in Redis, as one journal",
		Long: `pull reads a proxy fleet's plan and events stream from Redis and writes one
journal of the fleet's run: one run start, every member's events tagged with its
member id (ordered by offset from the fleet's start), one run end. replay,
report and history read it like any other journal. Its status is completed when
every member ended its run, interrupted when one did not (lost, or still
running). An existing file is overwritten only with --force.`,
		Example: `  drill journal pull redis://127.0.0.1:6379/0 --fleet staging -o fleet.jsonl`,
		Args:    cli.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := proxyfleet.CheckArgs(args[0], fleet); err != nil {
				return err
			}
			if out == "" {
				return exit.Usagef("-o FILE is required: where to write the journal")
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			p, err := proxyfleet.Pull(ctx, args[0], fleet)
			if err != nil {
				return err
			}
			status, n, err := proxyfleet.WriteJournal(out, force, p)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "drill journal pull: %d members, %d events, %s: wrote %s\n", len(p.Members), n, status, out)
			return nil
		},
	}
	pull.Flags().StringVar(&fleet, "fleet", "", "the fleet's name, as its members' --fleet")
	pull.Flags().StringVarP(&out, "output", "o", "", "the journal to write")
	pull.Flags().BoolVar(&force, "force", false, "let -o overwrite an existing file")
	cmd.AddCommand(pull)
	return cmd
}
