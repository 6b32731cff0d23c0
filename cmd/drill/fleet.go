package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fleet"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
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
	if err := o.checkStore(cmd.Context()); err != nil {
		return err
	}
	cli.Warn(cmd.ErrOrStderr(), o.f.Warnings())
	watch, err := o.wf.Start(cmd.Flags(), cmd.ErrOrStderr(), o.f.File(), event.ClockReal, nil)
	if err != nil {
		return err
	}
	return cli.CloseWatch(watch, o.runFleet(cmd, cfgs[0], chk, watch))
}

// checkStore refuses a shared store that is down or refuses the password
// at the start, which would leave every replica on its own breakers,
// unless --store-fallback local says to run so.
func (o *fleetFlags) checkStore(ctx context.Context) error {
	if o.storeFallback != "" && o.storeFallback != fleet.StoreLocal {
		return exit.Usagef("--store-fallback %q: the only fallback is local", o.storeFallback)
	}
	if o.storeFallback != "" || o.ff.Store == "" || o.ff.Store == fleet.StoreLocal {
		return nil
	}
	store := fleet.Config{Store: o.ff.Store}
	if err := store.StoreURL(); err != nil {
		return exit.UsageError(err) // no store to reach: what is wrong with its address
	}
	if err := store.CheckStore(ctx); err != nil {
		return exit.UsageError(fmt.Errorf("%w (give --store-fallback local to run on each replica's own breakers instead)", err))
	}
	return nil
}

// runFleet runs one fleet drill, or two with --compare-stores, and prints
// the summaries.
func (o *fleetFlags) runFleet(cmd *cobra.Command, run workload.Config, chk plan.Expectations, watch *session.Watch) error {
	ff, jsonOut, tables, noTUI, record, force := o.ff, o.jsonOut, o.tables, o.noTUI, o.record, o.force
	base := fleet.Config{Run: run, Replicas: ff.Replicas, Routing: ff.Routing, Store: ff.Store}
	if err := ff.Coordination(&base, cmd.ErrOrStderr()); err != nil {
		return err
	}
	if ff.Processes {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("--processes: finding the drill binary: %w", err)
		}
		base.Worker = []string{exe, fleetWorkerCmd}
		base.WorkerEnv = []string{fleetAPIKeyEnv + "=" + run.Endpoint.APIKey}
	}
	cfgs, paths := []fleet.Config{base}, []string{record}
	if ff.CompareStores {
		if !base.Shared() {
			return exit.Usagef("--compare-stores compares the local store with a shared one: give --breaker-store redis://HOST:PORT/DB")
		}
		cfgs, paths = session.CompareStores(base, record)
	}
	for _, p := range paths {
		if err := cli.NotInput(cmd.Flags(), "--record", p); err != nil {
			return err
		}
	}
	if err := session.CheckFleets(cfgs, paths, force); err != nil {
		return err
	}
	cli.Warn(cmd.ErrOrStderr(), run.Warnings())
	opts := session.FleetOptions{Journals: paths, Progress: cmd.ErrOrStderr(), Watch: watch}
	if !noTUI && !jsonOut && !ff.CompareStores && stdoutIsTerminal() {
		opts.Show = func(ctx context.Context, fl *fleet.Fleet) error {
			return tui.RunFleet(ctx, tui.FleetSource{Log: fl.Log(), Stop: fl.Stop}, tui.Options{Output: os.Stdout})
		}
	}
	res, err := session.Fleets(cmd.Context(), cfgs, opts)
	if err != nil {
		return err
	}
	judged, warnings, jerr := session.JudgeFleets(res, chk.Hypotheses)
	cli.Warn(cmd.ErrOrStderr(), warnings)
	sums := make([]scoring.FleetSummary, len(judged))
	for k, j := range judged {
		sums[k] = j.FleetSummary
		if !jsonOut {
			if err := plain.Verdicts(cmd.OutOrStdout(), j.Hypotheses); err != nil {
				return err
			}
		}
	}
	switch {
	case jsonOut && ff.CompareStores:
		err = plain.JSON(cmd.OutOrStdout(), judged)
	case jsonOut:
		err = plain.JSON(cmd.OutOrStdout(), judged[0])
	case ff.CompareStores:
		out := cmd.OutOrStdout()
		err = tables.Write(out, report.FleetTable(sums), func() error { return report.WriteFleetTable(out, sums) })
	default:
		err = plain.Fleet(cmd.OutOrStdout(), sums[0])
	}
	if err != nil {
		return err
	}
	return jerr
}

// fleetWorkerCmd is the hidden command a --processes worker runs, and
// fleetAPIKeyEnv the variable that hands it the API key (never serialised).
const (
	fleetWorkerCmd = "fleet-worker"
	fleetAPIKeyEnv = "DRILL_FLEET_API_KEY"
)

// newFleetWorkerCmd is `drill fleet-worker`: with --join, one worker of a
// coordinated fleet, started anywhere; without, one replica of a drill
// fleet --processes run, fed by its parent on stdin.
func newFleetWorkerCmd() *cobra.Command {
	var o fleet.JoinOptions
	cmd := &cobra.Command{
		Use:   fleetWorkerCmd,
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
				c.Endpoint.APIKey = os.Getenv(fleetAPIKeyEnv)
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
