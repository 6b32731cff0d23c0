package main

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/control/client"
)

func newCtlCmd() *cobra.Command {
	var f client.Flags
	cmd := &cobra.Command{
		Use:   "ctl",
		Short: "Steer a running drill proxy or drill run through its control API",
		Long: `ctl is the client of the control API that drill proxy and drill run (real
clock) serve with --control-listen: start an outage now, end it, read the
schedule and the live figures. Every command is recorded in the target's
journal with who sent it (--as NAME, from this host's address).

Exit codes: 0 ok, 1 the API refused the command or could not be reached,
2 usage error.`,
		Example: `  drill ctl outage start --kind hang --for 30s
  drill ctl outage start --kind busy --param status=429 --models gpt-5.4-mini --as ana
  drill ctl outage stop
  drill ctl status --addr 10.0.0.5:8475 --token-env DRILL_CONTROL_TOKEN`,
		Args: cli.CommandArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	f.Register(cmd.PersistentFlags())
	outage := &cobra.Command{Use: "outage", Short: "Start or stop an outage now", Args: cli.CommandArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() }}
	outage.AddCommand(newCtlStartCmd(&f), newCtlStopCmd(&f))
	cmd.AddCommand(outage, newCtlReadCmd(&f, "status", "The live figures and the outages active"),
		newCtlReadCmd(&f, "schedule", "The outage timeline and the outages active"))
	return cmd
}

func newCtlStartCmd(f *client.Flags) *cobra.Command {
	var (
		s      control.Start
		params []string
		dur    time.Duration
	)
	cmd := &cobra.Command{
		Use:   "start",
		Short: "Start an outage now",
		Args:  cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := client.CheckStart(&s, params, dur); err != nil {
				return err
			}
			return f.Start(ctx(cmd), cmd.OutOrStdout(), s)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&s.Kind, "kind", "", "the fault: "+strings.Join(inject.Kinds(), ", "))
	fs.DurationVar(&dur, "for", 0, "how long the outage lasts (0: until drill ctl outage stop)")
	fs.StringArrayVar(&params, "param", nil, "a fault parameter or window modifier, `KEY=VALUE` (repeat for more; as --fault)")
	fs.StringSliceVar(&s.Models, "models", nil, "limit the outage to these models (drill proxy: the requests' model names; drill run: primary, backup)")
	fs.StringVar(&s.ID, "id", "", "the command's id: a command with an id already applied is not applied again (default: the API makes one)")
	return cmd
}

func newCtlStopCmd(f *client.Flags) *cobra.Command {
	var id string
	cmd := &cobra.Command{
		Use:   "stop",
		Short: "End every outage active now",
		Args:  cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return f.Stop(ctx(cmd), cmd.OutOrStdout(), id)
		},
	}
	cmd.Flags().StringVar(&id, "id", "", "the command's id (default: the API makes one)")
	return cmd
}

// newCtlReadCmd is drill ctl status or schedule.
func newCtlReadCmd(f *client.Flags, name, short string) *cobra.Command {
	return &cobra.Command{
		Use:   name,
		Short: short,
		Args:  cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return f.Read(ctx(cmd), cmd.OutOrStdout(), name)
		},
	}
}

// ctx is the command's context, or the background's.
func ctx(cmd *cobra.Command) context.Context {
	if c := cmd.Context(); c != nil {
		return c
	}
	return context.Background()
}
