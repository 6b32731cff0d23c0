package plan

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fleet"
)

// Fleet is drill fleet's own command line: the replicas, how emails are
// routed to them and where their breakers keep state.
type Fleet struct {
	Replicas      int    // --replicas
	Routing       string // --routing
	Store         string // --breaker-store
	CompareStores bool   // --compare-stores
	Processes     bool   // --processes
}

// Register adds the fleet flags to fs.
func (f *Fleet) Register(fs *pflag.FlagSet) {
	fs.IntVar(&f.Replicas, "replicas", 8, fmt.Sprintf("replicas in the fleet, 1–%d", fleet.MaxReplicas))
	fs.StringVar(&f.Routing, "routing", fleet.RoutingRoundRobin, "how emails are routed to replicas: "+strings.Join(fleet.Routings(), ", ")+" (seeded by --seed)")
	fs.StringVar(&f.Store, "breaker-store", fleet.StoreLocal, "where breakers keep their state: local (each replica its own) or redis://HOST:PORT/DB (one shared state per rung)")
	fs.BoolVar(&f.CompareStores, "compare-stores", false, "run the fleet with the local store and with the --breaker-store Redis at once, side by side")
	fs.BoolVar(&f.Processes, "processes", false, "run each replica as its own drill worker process (default: goroutine groups in this process)")
}

// FromFile takes the fleet: settings of the drill file at path ("" for
// none) that no flag overrides.
func (f *Fleet) FromFile(fs *pflag.FlagSet, path string) error {
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
		f.Replicas = int(*df.Fleet.Replicas)
	}
	if df.Fleet.Routing != "" && !fs.Changed("routing") {
		f.Routing = df.Fleet.Routing
	}
	if df.Fleet.BreakerStore != "" && !fs.Changed("breaker-store") {
		f.Store = df.Fleet.BreakerStore
	}
	return nil
}
