package main

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fleet"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/present"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/workload"
)

// fleetFlags are drill fleet's flags: the drill (f), the fleet (ff), and
// how it is shown and recorded.
type fleetFlags struct {
	f              plan.CLI
	ff             plan.Fleet
	noTUI          bool
	wf             cli.WatchFlags
	outage, policy string
	jsonOut, force bool
	record         string
	storeFallback  string
	tables         cli.TableFormat
}

func newFleetCmd() *cobra.Command {
	o := &fleetFlags{}
	cmd := &cobra.Command{
		Use:   "fleet",
		Short: "Run one drill on a fleet of replicas, with per-replica or shared (Redis) breakers",
		Long: `Run one drill on a fleet of replicas: the emails are routed to N replicas
(round-robin, or --routing random, seeded), each with its own SDK clients,
chain and breakers, as goroutine groups in this process. With --breaker-store
redis://HOST:PORT/DB every rung has one breaker state shared by all replicas
in Redis; a Redis that cannot be reached or refuses the password at the start
is an error (exit 2) unless --store-fallback local is given. If Redis stops
answering during the drill, replicas fall back to their own breakers (and say
so) until it is back.

--compare-stores runs the same fleet twice at once, local against the Redis
store given with --breaker-store, and prints them side by side.

An outage window can break one replica's path alone: --fault replicas=3, or
replicas: [3] on a window in a drill file.`,
		Example: `  drill fleet --replicas 8 --outage busy --policy breaker
  drill fleet --replicas 8 --outage busy --breaker-store redis://127.0.0.1:6379/0
  drill fleet --replicas 8 --outage busy --breaker-store redis://127.0.0.1:6379/0 --compare-stores
  drill fleet --replicas 8 --outage busy --fault replicas=3 --breaker-store redis://127.0.0.1:6379/0 --compare-stores`,
		Args: cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
	d := workload.DefaultConfig()
	fs := cmd.Flags()
	fs.StringVar(&o.outage, "outage", d.Outage, plan.OutageHelp())
	fs.StringVar(&o.policy, "policy", d.Policy.Name, "policy preset: primary-only, backup-only, fallback, breaker, fail-fast")
	o.ff.Register(fs)
	plan.RegisterWorkload(fs)
	fs.BoolVar(&o.jsonOut, "json", false, "print the fleet summary as JSON (an array of two with --compare-stores)")
	cli.RegisterTableFormat(fs, &o.tables)
	fs.BoolVar(&o.noTUI, "no-tui", false, "plain progress lines instead of the fleet pane on a terminal")
	fs.StringVar(&o.record, "record", "", "record the fleet's one log as a journal in this file (with --compare-stores: FILE-local.jsonl and FILE-redis.jsonl)")
	fs.BoolVar(&o.force, "force", false, "let --record overwrite an existing journal")
	fs.StringVar(&o.storeFallback, "store-fallback", "", "local: start even when the Redis --breaker-store cannot be reached or refuses the password "+
		"(replicas use their own breakers until it answers); without it such a store is an error (exit 2)")
	o.f.Register(fs)
	o.f.RegisterFile(fs)
	o.wf.Register(fs)
	return cmd
}

// run is drill fleet: the drill planned, the store checked, the fleet
// watched while it runs.
func (o *fleetFlags) run(cmd *cobra.Command) error {
	if err := plan.TriageOnly(cmd.Flags(), "drill fleet"); err != nil {
		return err
	}
	cfgs, chk, err := o.f.Plan(cmd.Flags(), plan.Selection{Outages: []string{o.outage}, Policies: []string{o.policy}, OutagesFlag: "outage", PoliciesFlag: "policy"}, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	if err := o.ff.FromFile(cmd.Flags(), o.f.File()); err != nil {
		return err
	}
	if err := present.CheckStore(cmd.Context(), o.ff, o.storeFallback); err != nil {
		return err
	}
	cli.Warn(cmd.ErrOrStderr(), o.f.Warnings())
	watch, err := o.wf.Start(cmd.Flags(), cmd.ErrOrStderr(), o.f.File(), event.ClockReal, nil)
	if err != nil {
		return err
	}
	base := fleet.Config{Run: cfgs[0], Replicas: o.ff.Replicas, Routing: o.ff.Routing, Store: o.ff.Store}
	return cli.CloseWatch(watch, present.Fleet(cli.EnvOf(cmd), base, present.FleetOptions{Fleet: o.ff, JSON: o.jsonOut, Tables: o.tables,
		Show: !o.noTUI && stdoutIsTerminal(), Record: o.record, Force: o.force, Checks: chk, Watch: watch}))
}

// newFleetWorkerCmd is `drill fleet-worker`: with --join, one worker of a
// coordinated fleet, started anywhere; without, one replica of a drill
// fleet --processes run, fed by its parent on stdin.
func newFleetWorkerCmd() *cobra.Command {
	var o fleet.JoinOptions
	cmd := &cobra.Command{
		Use:   fleet.WorkerCommand,
		Short: "Join a coordinated drill fleet through Redis and serve its emails (drill fleet --coordinate)",
		Long: `Join the coordinated fleet NAME (drill fleet --coordinate redis://… --fleet NAME)
from any host: wait for its run, take emails from its work stream, send each
through the same engine drill fleet runs, and put the events back on the
fleet's events stream. Emails another worker held past the claim time are
taken over. The worker ends when the coordinator says the run is done or
stopped; Ctrl-C stops it at once (its emails in flight go to the others).

Without --join this is the worker drill fleet --processes starts itself,
which reads its drill on stdin.`,
		Example: `  drill fleet-worker --join redis://10.0.0.5:6379/0 --fleet staging
  drill fleet-worker --join redis://10.0.0.5:6379/0 --fleet staging --name "$(hostname)-1"`,
		Args: cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			wire := func(c *workload.Config) {
				c.Endpoint.APIKey = os.Getenv(fleet.APIKeyEnv)
				session.WireFakeModel(c)
			}
			if o.URL == "" && (o.Fleet != "" || o.Name != "") {
				return exit.Usagef("--fleet and --name join a coordinated fleet: give --join redis://HOST:PORT/DB too")
			}
			if o.URL == "" {
				// Ctrl-C reaches the whole process group; the parent decides,
				// and stops this worker by closing its stdin.
				return fleet.Work(context.Background(), os.Stdin, cmd.OutOrStdout(), wire)
			}
			o.Wire = func(c *workload.Config) {
				if c.Endpoint.KeyEnv != "" {
					c.Endpoint.APIKey = os.Getenv(c.Endpoint.KeyEnv) // this host's key, as the coordinator read its own
				}
				session.WireFakeModel(c)
			}
			o.Status = cmd.ErrOrStderr()
			return fleet.Join(cmd.Context(), o)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.URL, "join", "", "redis://HOST:PORT/DB: the coordinated fleet's Redis")
	fs.StringVar(&o.Fleet, "fleet", "", "the fleet's name, as drill fleet --coordinate was given it")
	fs.StringVar(&o.Name, "name", "", "this worker's name in the fleet (default HOST-PID)")
	fs.DurationVar(&o.Timeout, "join-timeout", fleet.DefaultJoinTimeout, "how long to wait for the fleet's run to join")
	return cmd
}
