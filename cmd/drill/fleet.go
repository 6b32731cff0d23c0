package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fleet"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
	"github.com/drill-dev/drill/workload"
)

// fleetFlags are drill fleet's own flags.
type fleetFlags struct {
	replicas      int
	routing       string
	store         string
	compareStores bool
	processes     bool
	noTUI         bool
}

func newFleetCmd() *cobra.Command {
	var (
		f              drillFlags
		df             fileFlags
		ff             fleetFlags
		outage, policy string
		jsonOut, force bool
		record         string
	)
	cmd := &cobra.Command{
		Use:   "fleet",
		Short: "Run one drill on a fleet of replicas, with per-replica or shared (Redis) breakers",
		Long: `Run one drill on a fleet of replicas: the emails are routed to N replicas
(round-robin, or --routing random, seeded), each with its own SDK clients,
chain and breakers, as goroutine groups in this process. With --breaker-store
redis://HOST:PORT/DB every rung has one breaker state shared by all replicas
in Redis; if Redis stops answering, replicas fall back to their own breakers
(and say so) until it is back.

--compare-stores runs the same fleet twice at once, local against the Redis
store given with --breaker-store, and prints them side by side.

An outage window can break one replica's path alone: --fault replicas=3, or
replicas: [3] on a window in a drill file.`,
		Example: `  drill fleet --replicas 8 --outage busy --policy breaker
  drill fleet --replicas 8 --outage busy --breaker-store redis://127.0.0.1:6379/0
  drill fleet --replicas 8 --outage busy --breaker-store redis://127.0.0.1:6379/0 --compare-stores
  drill fleet --replicas 8 --outage busy --fault replicas=3 --breaker-store redis://127.0.0.1:6379/0 --compare-stores`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfgs, chk, err := df.plan(cmd.Flags(), &f, []string{outage}, []string{policy}, "outage", "policy", cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			if err := ff.fromFile(cmd.Flags(), df.path); err != nil {
				return err
			}
			f.warn(cmd.ErrOrStderr())
			return runFleet(cmd, cfgs[0], ff, chk, jsonOut, record, force)
		},
	}
	d := workload.DefaultConfig()
	fs := cmd.Flags()
	fs.StringVar(&outage, "outage", d.Outage, outageHelp())
	fs.StringVar(&policy, "policy", d.Policy.Name, "policy preset: primary-only, backup-only, fallback, breaker, fail-fast")
	fs.IntVar(&ff.replicas, "replicas", 8, fmt.Sprintf("replicas in the fleet, 1–%d", fleet.MaxReplicas))
	fs.StringVar(&ff.routing, "routing", fleet.RoutingRoundRobin, "how emails are routed to replicas: "+strings.Join(fleet.Routings(), ", ")+" (seeded by --seed)")
	fs.StringVar(&ff.store, "breaker-store", fleet.StoreLocal, "where breakers keep their state: local (each replica its own) or redis://HOST:PORT/DB (one shared state per rung)")
	fs.BoolVar(&ff.compareStores, "compare-stores", false, "run the fleet with the local store and with the --breaker-store Redis at once, side by side")
	fs.BoolVar(&ff.processes, "processes", false, "run each replica as its own drill worker process (default: goroutine groups in this process)")
	fs.BoolVar(&jsonOut, "json", false, "print the fleet summary as JSON (an array of two with --compare-stores)")
	fs.BoolVar(&ff.noTUI, "no-tui", false, "plain progress lines instead of the fleet pane on a terminal")
	fs.StringVar(&record, "record", "", "record the fleet's one log as a journal in this file (with --compare-stores: FILE-local.jsonl and FILE-redis.jsonl)")
	fs.BoolVar(&force, "force", false, "let --record overwrite an existing journal")
	f.register(fs)
	df.register(fs)
	return cmd
}

// fromFile takes the drill file's fleet: settings that no flag overrides.
func (ff *fleetFlags) fromFile(fs *pflag.FlagSet, path string) error {
	if path == "" {
		return nil
	}
	df, err := drillfile.Load(path)
	if err != nil {
		return exit.UsageError(err)
	}
	if df.Fleet == nil {
		return nil
	}
	if df.Fleet.Replicas != nil && !fs.Changed("replicas") {
		ff.replicas = int(*df.Fleet.Replicas)
	}
	if df.Fleet.Routing != "" && !fs.Changed("routing") {
		ff.routing = df.Fleet.Routing
	}
	if df.Fleet.BreakerStore != "" && !fs.Changed("breaker-store") {
		ff.store = df.Fleet.BreakerStore
	}
	return nil
}

// runFleet runs one fleet drill, or two with --compare-stores, and prints
// the summaries.
func runFleet(cmd *cobra.Command, run workload.Config, ff fleetFlags, chk checks, jsonOut bool, record string, force bool) error {
	base := fleet.Config{Run: run, Replicas: ff.replicas, Routing: ff.routing, Store: ff.store}
	if ff.processes {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("--processes: finding the drill binary: %w", err)
		}
		base.Worker = []string{exe, fleetWorkerCmd}
		base.WorkerEnv = []string{fleetAPIKeyEnv + "=" + run.Endpoint.APIKey}
	}
	cfgs, paths := []fleet.Config{base}, []string{record}
	if ff.compareStores {
		if !base.Shared() {
			return exit.Usagef("--compare-stores compares the local store with a shared one: give --breaker-store redis://HOST:PORT/DB")
		}
		cfgs, paths = session.CompareStores(base, record)
	}
	if err := session.CheckFleets(cfgs, paths, force); err != nil {
		return err
	}
	warn(cmd, run.Warnings())
	opts := session.FleetOptions{Journals: paths, Progress: cmd.ErrOrStderr()}
	if !ff.noTUI && !jsonOut && !ff.compareStores && stdoutIsTerminal() {
		opts.Show = func(ctx context.Context, fl *fleet.Fleet) error {
			return tui.RunFleet(ctx, tui.FleetSource{Log: fl.Log(), Stop: fl.Stop}, tui.Options{Output: os.Stdout})
		}
	}
	res, err := session.Fleets(cmd.Context(), cfgs, opts)
	if err != nil {
		return err
	}
	// Hypotheses are judged on each fleet's whole summary.
	judgedSums := make([]judgedFleet, len(res))
	sums := make([]scoring.FleetSummary, len(res))
	var verrs []error
	interrupted := false
	for k, r := range res {
		vs, err := verdict(cmd.ErrOrStderr(), r.Summary.Fleet, r.Status, chk)
		judgedSums[k], sums[k] = judgedFleet{r.Summary, vs}, r.Summary
		if err != nil && !errors.Is(err, exit.ErrInterrupted) {
			verrs = append(verrs, fmt.Errorf("%s store: %w", r.Summary.BreakerStore, err))
		}
		interrupted = interrupted || r.Status == event.StatusInterrupted
		if !jsonOut {
			if err := printVerdicts(cmd.OutOrStdout(), vs); err != nil {
				return err
			}
		}
	}
	switch {
	case jsonOut && ff.compareStores:
		err = encodeJSON(cmd.OutOrStdout(), judgedSums)
	case jsonOut:
		err = encodeJSON(cmd.OutOrStdout(), judgedSums[0])
	case ff.compareStores:
		err = report.WriteFleetTable(cmd.OutOrStdout(), sums)
	default:
		err = plain.Fleet(cmd.OutOrStdout(), sums[0])
	}
	if err != nil {
		return err
	}
	if interrupted {
		return exit.ErrInterrupted
	}
	return errors.Join(verrs...)
}

// judgedFleet is a fleet summary with its judged hypotheses, as --json
// prints it.
type judgedFleet struct {
	scoring.FleetSummary
	Hypotheses []scoring.Verdict `json:"hypotheses,omitempty"`
}

// fleetWorkerCmd is the hidden command a --processes worker runs, and
// fleetAPIKeyEnv the variable that hands it the API key (never serialised).
const (
	fleetWorkerCmd = "fleet-worker"
	fleetAPIKeyEnv = "DRILL_FLEET_API_KEY"
)

// newFleetWorkerCmd is the hidden `drill fleet-worker`: one replica of a
// drill fleet --processes run, fed by its parent on stdin.
func newFleetWorkerCmd() *cobra.Command {
	return &cobra.Command{
		Use:    fleetWorkerCmd,
		Short:  "One replica of drill fleet --processes (started by drill fleet; reads its drill on stdin)",
		Hidden: true,
		Args:   usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			// Ctrl-C reaches the whole process group; the parent decides,
			// and stops this worker by closing its stdin.
			return fleet.Work(context.Background(), os.Stdin, cmd.OutOrStdout(), func(c *workload.Config) {
				c.Endpoint.APIKey = os.Getenv(fleetAPIKeyEnv)
				session.WireFakeModel(c)
			})
		},
	}
}
