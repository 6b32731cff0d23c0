package present

import (
	"context"
	"fmt"
	"os"

	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fleet"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
)

// FleetOptions are drill fleet's settings past the drill itself.
type FleetOptions struct {
	// Fleet are the fleet flags: replicas, routing, the breaker store.
	Fleet plan.Fleet
	// JSON prints the summaries as JSON; else Tables says how the
	// --compare-stores table is written.
	JSON   bool
	Tables cli.TableFormat
	// Show shows the fleet pane (a terminal, no --no-tui).
	Show bool
	// Record is the journal to write ("" for none); Force lets it
	// overwrite one.
	Record string
	Force  bool
	// Checks are the drill's hypotheses; Watch serves its metrics (nil
	// for none).
	Checks plan.Expectations
	Watch  *session.Watch
}

// CheckStore refuses a shared store that is down or refuses the password
// at the start, which would leave every replica on its own breakers,
// unless --store-fallback local (fallback) says to run so.
func CheckStore(ctx context.Context, ff plan.Fleet, fallback string) error {
	if fallback != "" && fallback != fleet.StoreLocal {
		return exit.Usagef("--store-fallback %q: the only fallback is local", fallback)
	}
	if fallback != "" || ff.Store == "" || ff.Store == fleet.StoreLocal {
		return nil
	}
	store := fleet.Config{Store: ff.Store}
	if err := store.StoreURL(); err != nil {
		return exit.UsageError(err) // no store to reach: what is wrong with its address
	}
	if err := store.CheckStore(ctx); err != nil {
		return exit.UsageError(fmt.Errorf("%w (give --store-fallback local to run on each replica's own breakers instead)", err))
	}
	return nil
}

// Fleet runs one fleet drill of base (its drill and replicas), or two with
// --compare-stores, and prints the summaries.
func Fleet(env cli.Env, base fleet.Config, o FleetOptions) error {
	cfgs, paths, err := fleetConfigs(env, base, o)
	if err != nil {
		return err
	}
	if err := session.CheckFleets(cfgs, paths, o.Force); err != nil {
		return err
	}
	cli.Warn(env.Err, base.Run.Warnings())
	opts := session.FleetOptions{Journals: paths, Progress: env.Err, Watch: o.Watch}
	if o.Show && !o.JSON && !o.Fleet.CompareStores {
		opts.Show = func(ctx context.Context, fl *fleet.Fleet) error {
			return tui.RunFleet(ctx, tui.FleetSource{Log: fl.Log(), Stop: fl.Stop}, tui.Options{Output: os.Stdout})
		}
	}
	res, err := session.Fleets(env.Ctx, cfgs, opts)
	if err != nil {
		return err
	}
	judged, warnings, jerr := session.JudgeFleets(res, o.Checks.Hypotheses)
	cli.Warn(env.Err, warnings)
	if err := printFleets(env, judged, o); err != nil {
		return err
	}
	return jerr
}

// fleetConfigs are the fleets to run (base, or local and shared with
// --compare-stores) and their journals, checked.
func fleetConfigs(env cli.Env, base fleet.Config, o FleetOptions) ([]fleet.Config, []string, error) {
	ff := o.Fleet
	if err := ff.Coordination(&base, env.Err); err != nil {
		return nil, nil, err
	}
	if ff.Processes {
		exe, err := os.Executable()
		if err != nil {
			return nil, nil, fmt.Errorf("--processes: finding the drill binary: %w", err)
		}
		base.Worker = []string{exe, fleet.WorkerCommand}
		base.WorkerEnv = []string{fleet.APIKeyEnv + "=" + base.Run.Endpoint.APIKey}
	}
	cfgs, paths := []fleet.Config{base}, []string{o.Record}
	if ff.CompareStores {
		if !base.Shared() {
			return nil, nil, exit.Usagef("--compare-stores compares the local store with a shared one: give --breaker-store redis://HOST:PORT/DB")
		}
		cfgs, paths = session.CompareStores(base, o.Record)
	}
	for _, p := range paths {
		if err := cli.NotInput(env.Flags, "--record", p); err != nil {
			return nil, nil, err
		}
	}
	return cfgs, paths, nil
}

// printFleets prints the judged fleets: each one's hypotheses, then its
// summary (side by side with --compare-stores), or JSON.
func printFleets(env cli.Env, judged []session.JudgedFleet, o FleetOptions) error {
	sums := make([]scoring.FleetSummary, len(judged))
	for k, j := range judged {
		sums[k] = j.FleetSummary
		if !o.JSON {
			if err := plain.Verdicts(env.Out, j.Hypotheses); err != nil {
				return err
			}
		}
	}
	out := env.Out
	switch {
	case o.JSON && o.Fleet.CompareStores:
		return plain.JSON(out, judged)
	case o.JSON:
		return plain.JSON(out, judged[0])
	case o.Fleet.CompareStores:
		return o.Tables.Write(out, report.FleetTable(sums), func() error { return report.WriteFleetTable(out, sums) })
	}
	return plain.Fleet(out, sums[0])
}
