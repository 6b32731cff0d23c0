package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/fleet"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/report"
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
	cfgs := []fleet.Config{base}
	paths := []string{record}
	if ff.compareStores {
		if !base.Shared() {
			return exit.Usagef("--compare-stores compares the local store with a shared one: give --breaker-store redis://HOST:PORT/DB")
		}
		local := base
		local.Store = fleet.StoreLocal
		cfgs = []fleet.Config{local, base}
		if record != "" {
			stem := strings.TrimSuffix(record, ".jsonl")
			paths = []string{stem + "-local.jsonl", stem + "-redis.jsonl"}
		} else {
			paths = []string{"", ""}
		}
	}
	for k, c := range cfgs {
		if err := c.Validate(); err != nil {
			return exit.UsageError(err)
		}
		if paths[k] != "" && !force {
			if err := refuseOverwrite(paths[k]); err != nil {
				return err
			}
		}
	}
	for _, w := range run.Warnings() {
		fmt.Fprintln(cmd.ErrOrStderr(), "drill: warning:", w)
	}
	ctx := cmd.Context()
	sums := make([]scoring.FleetSummary, len(cfgs))
	statuses := make([]string, len(cfgs))
	errs := make([]error, len(cfgs))
	dashboard := !ff.noTUI && !jsonOut && !ff.compareStores && stdoutIsTerminal()
	var wg sync.WaitGroup
	for k, c := range cfgs {
		wg.Go(func() { sums[k], statuses[k], errs[k] = fleetDrill(ctx, c, paths[k], cmd.ErrOrStderr(), dashboard) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	// Hypotheses are judged on each fleet's whole summary.
	judgedSums := make([]judgedFleet, len(sums))
	var verrs []error
	for k := range sums {
		vs, err := verdict(cmd.ErrOrStderr(), sums[k].Fleet, statuses[k], chk)
		judgedSums[k] = judgedFleet{sums[k], vs}
		if err != nil && !errors.Is(err, exit.ErrInterrupted) {
			verrs = append(verrs, fmt.Errorf("%s store: %w", sums[k].BreakerStore, err))
		}
		if !jsonOut {
			if err := printVerdicts(cmd.OutOrStdout(), vs); err != nil {
				return err
			}
		}
	}
	if jsonOut {
		var v any = judgedSums[0]
		if ff.compareStores {
			v = judgedSums
		}
		if err := encodeJSON(cmd.OutOrStdout(), v); err != nil {
			return err
		}
	} else if ff.compareStores {
		if err := report.WriteFleetTable(cmd.OutOrStdout(), sums); err != nil {
			return err
		}
	} else if err := printFleet(cmd.OutOrStdout(), sums[0]); err != nil {
		return err
	}
	for _, s := range statuses {
		if s == event.StatusInterrupted {
			return exit.ErrInterrupted
		}
	}
	return errors.Join(verrs...)
}

// judgedFleet is a fleet summary with its judged hypotheses, as --json
// prints it.
type judgedFleet struct {
	scoring.FleetSummary
	Hypotheses []scoring.Verdict `json:"hypotheses,omitempty"`
}

// fleetDrill runs one fleet to its end, recording it to path if set,
// with the fleet pane on the terminal (dashboard) or a progress line a
// second on progress.
func fleetDrill(ctx context.Context, c fleet.Config, path string, progress io.Writer, dashboard bool) (scoring.FleetSummary, string, error) {
	if c.Run.Endpoint.BaseURL == "" && c.Run.Endpoint.Transport == nil {
		c.Run.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: c.Run.Seed, LatencyScale: 1}).Transport()
	}
	fl, err := fleet.Start(ctx, c)
	if err != nil {
		return scoring.FleetSummary{}, "", exit.UsageError(err)
	}
	var rec *journal.Writer
	if path != "" {
		h, err := recordingHeader(c.Run, fl.Log().Start())
		if err == nil {
			rec, err = journal.Create(path, h, fl.Log(), journal.Options{Secrets: []string{c.Run.Endpoint.APIKey}})
		}
		if err != nil {
			fl.Stop()
			fl.Wait()
			return scoring.FleetSummary{}, "", exit.UsageError(fmt.Errorf("--record: %w", err))
		}
	}
	if dashboard {
		if err := tui.RunFleet(ctx, tui.FleetSource{Log: fl.Log(), Stop: fl.Stop}, tui.Options{Output: os.Stdout}); err != nil &&
			!errors.Is(err, ctx.Err()) {
			fl.Stop()
			fl.Wait()
			return scoring.FleetSummary{}, "", err
		}
	} else {
		fleetProgress(fl, c.StoreKind(), progress)
	}
	status := fl.Wait()
	ff := scoring.NewFleetFold()
	ff.AddAll(fl.Log().Events())
	sum := ff.Summary()
	if err := finishRecording(rec, sum.Fleet, status); err != nil {
		return sum, status, err
	}
	return sum, status, nil
}

// fleetProgress writes one line a second until the fleet ends.
func fleetProgress(fl *fleet.Fleet, store string, w io.Writer) {
	cur := fl.Log().Cursor()
	fold := scoring.NewFleetFold()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	line := func() {
		fold.AddAll(cur.Poll())
		s := fold.Summary()
		var local []string
		for _, r := range s.PerReplica {
			if r.StoreLocal {
				local = append(local, strconv.Itoa(r.Replica))
			}
		}
		extra := ""
		if len(local) > 0 {
			extra = " · on local breakers (store unreachable): replicas " + strings.Join(local, ",")
		}
		fmt.Fprintf(w, "[%s] %s%s\n", store, format.Progress(fold.Whole(), time.Since(fl.Log().Start())), extra)
	}
	for {
		select {
		case <-fl.Done():
			line()
			return
		case <-tick.C:
			line()
		}
	}
}

// printFleet prints a fleet summary: the fleet's figures, then a row per
// replica.
func printFleet(w io.Writer, s scoring.FleetSummary) error {
	if err := printSummary(w, s.Fleet, false); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nfleet: %d replicas, routing %s, breaker store %s, fallbacks to local breakers %d\n",
		s.Replicas, s.Routing, s.BreakerStore, s.StoreFallbacks)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "replica\temails\tprimary/backup/canned/error\tbroken calls\tfirst open\topens\twait median/p95\tbreaker\tstore")
	for _, r := range s.PerReplica {
		store := "shared"
		if s.BreakerStore != "redis" {
			store = "local"
		} else if r.StoreLocal {
			store = "local (fallback)"
		}
		if r.StoreFallbacks > 0 {
			store += fmt.Sprintf(", %d fallbacks", r.StoreFallbacks)
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%d\t%s\t%d\t%s / %s\t%s\t%s\n", r.Replica, r.EmailsSent, format.Served(r.Served),
			r.CallsToBrokenOutage, format.Seconds(r.BreakerFirstOpenS), r.BreakerOpens,
			format.Seconds(r.MedianWaitOutageS), format.Seconds(r.P95WaitOutageS), r.BreakerState, store)
	}
	return tw.Flush()
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
				if c.Endpoint.BaseURL == "" && c.Endpoint.Transport == nil {
					c.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: c.Seed, LatencyScale: 1}).Transport()
				}
			})
		},
	}
}
