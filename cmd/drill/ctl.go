package main

import (
	"context"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/control/client"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/redact"
)

// ctlFlags are drill ctl's flags, shared by its commands.
type ctlFlags struct {
	addr, tokenEnv, as string
	json               bool
	timeout            time.Duration
	// coordinate and fleet send start and stop to a proxy fleet through
	// its Redis instead of one control API.
	coordinate, fleet string
}

// client is the control API's client the flags describe.
func (f *ctlFlags) client() (*client.Client, error) {
	if f.timeout <= 0 {
		return nil, exit.Usagef("--timeout must be positive, got %s", f.timeout)
	}
	if f.tokenEnv == "" {
		return nil, exit.Usagef("--token-env needs the name of an environment variable")
	}
	if f.fleet != "" {
		return nil, exit.Usagef("--fleet goes with --coordinate (a proxy fleet's Redis); without it drill ctl talks to one control API, --addr")
	}
	return &client.Client{Addr: control.WithPort(f.addr), Token: os.Getenv(f.tokenEnv), As: f.as, HTTP: &http.Client{Timeout: f.timeout}}, nil
}

func newCtlCmd() *cobra.Command {
	var f ctlFlags
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
	pf := cmd.PersistentFlags()
	pf.StringVar(&f.addr, "addr", control.DefaultAddr, "the control API's address, HOST[:PORT] (as --control-listen gave it)")
	pf.StringVar(&f.tokenEnv, "token-env", control.DefaultTokenEnv, "the environment variable holding the bearer token")
	pf.StringVar(&f.as, "as", "", "your name, recorded with the command as NAME@ADDR (letters, digits, '.', '-', '_')")
	pf.BoolVar(&f.json, "json", false, "print the API's JSON answer")
	pf.DurationVar(&f.timeout, "timeout", 10*time.Second, "how long to wait for the API's answer")
	pf.StringVar(&f.coordinate, "coordinate", "", "send outage start and stop to a proxy fleet through this Redis, `redis://HOST:PORT/DB` (with --fleet), instead of one control API")
	pf.StringVar(&f.fleet, "fleet", "", "with --coordinate: the proxy fleet's name")
	outage := &cobra.Command{Use: "outage", Short: "Start or stop an outage now", Args: cli.CommandArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() }}
	outage.AddCommand(newCtlStartCmd(&f), newCtlStopCmd(&f))
	cmd.AddCommand(outage, newCtlReadCmd(&f, "status", "The live figures and the outages active"),
		newCtlReadCmd(&f, "schedule", "The outage timeline and the outages active"))
	return cmd
}

func newCtlStartCmd(f *ctlFlags) *cobra.Command {
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
			if f.coordinate != "" {
				return f.sendFleet(cmd, func(who string) (control.Command, error) { return s.Command(who, time.Now()) })
			}
			c, err := f.client()
			if err != nil {
				return err
			}
			r, raw, err := c.Start(ctx(cmd), s)
			return f.print(cmd, raw, err, func() { client.WriteReply(cmd.OutOrStdout(), r) })
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

func newCtlStopCmd(f *ctlFlags) *cobra.Command {
	var id string
	cmd := &cobra.Command{
		Use:   "stop",
		Short: "End every outage active now",
		Args:  cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.coordinate != "" {
				return f.sendFleet(cmd, func(who string) (control.Command, error) {
					return control.Stop(id, who, time.Now()), nil
				})
			}
			c, err := f.client()
			if err != nil {
				return err
			}
			r, raw, err := c.Stop(ctx(cmd), id)
			return f.print(cmd, raw, err, func() { client.WriteReply(cmd.OutOrStdout(), r) })
		},
	}
	cmd.Flags().StringVar(&id, "id", "", "the command's id (default: the API makes one)")
	return cmd
}

// newCtlReadCmd is drill ctl status or schedule.
func newCtlReadCmd(f *ctlFlags, name, short string) *cobra.Command {
	return &cobra.Command{
		Use:   name,
		Short: short,
		Args:  cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.coordinate != "" {
				return exit.Usagef("drill ctl %s reads one control API (--addr); a proxy fleet's figures: drill watch %s --fleet %s",
					name, redact.URL(f.coordinate), f.fleet)
			}
			c, err := f.client()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if name == "status" {
				s, raw, err := c.Status(ctx(cmd))
				return f.print(cmd, raw, err, func() { client.WriteStatus(out, s) })
			}
			s, raw, err := c.Schedule(ctx(cmd))
			return f.print(cmd, raw, err, func() { client.WriteSchedule(out, s) })
		},
	}
}

// print prints an answer: the API's JSON with --json, else as plain
// writes it. A refusal or an API out of reach is the error (exit 1).
func (f *ctlFlags) print(cmd *cobra.Command, raw []byte, err error, plain func()) error {
	if err != nil {
		return err
	}
	if f.json {
		_, err := cmd.OutOrStdout().Write(raw)
		return err
	}
	plain()
	return nil
}

// ctx is the command's context, or the background's.
func ctx(cmd *cobra.Command) context.Context {
	if c := cmd.Context(); c != nil {
		return c
	}
	return context.Background()
}
