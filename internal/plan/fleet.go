package plan

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fleet"
)

// Fleet is drill fleet's own command line: the replicas, how emails are
// routed to them and where their breakers keep state.
type Fleet struct {
	Replicas      int           // --replicas
	Routing       string        // --routing
	Store         string        // --breaker-store
	CompareStores bool          // --compare-stores
	Processes     bool          // --processes
	Coordinate    string        // --coordinate
	Name          string        // --fleet
	JoinTimeout   time.Duration // --join-timeout
	ClaimAfter    time.Duration // --claim-after
}

// Register adds the fleet flags to fs.
func (f *Fleet) Register(fs *pflag.FlagSet) {
	fs.IntVar(&f.Replicas, "replicas", 8, fmt.Sprintf("replicas in the fleet, 1–%d", fleet.MaxReplicas))
	fs.StringVar(&f.Routing, "routing", fleet.RoutingRoundRobin, "how emails are routed to replicas: "+strings.Join(fleet.Routings(), ", ")+" (seeded by --seed)")
	fs.StringVar(&f.Store, "breaker-store", fleet.StoreLocal, "where breakers keep their state: local (each replica its own) or redis://HOST:PORT/DB (one shared state per rung)")
	fs.BoolVar(&f.CompareStores, "compare-stores", false, "run the fleet with the local store and with the --breaker-store Redis at once, side by side")
	fs.BoolVar(&f.Processes, "processes", false, "run each replica as its own drill worker process (default: goroutine groups in this process)")
	fs.StringVar(&f.Coordinate, "coordinate", "", "redis://HOST:PORT/DB: coordinate the fleet through Redis Streams; --replicas workers join from anywhere "+
		"with drill fleet-worker --join (needs --fleet)")
	fs.StringVar(&f.Name, "fleet", "", "the coordinated fleet's name, which its workers join by")
	fs.DurationVar(&f.JoinTimeout, "join-timeout", fleet.DefaultJoinTimeout, "with --coordinate: how long to wait for every worker to join")
	fs.DurationVar(&f.ClaimAfter, "claim-after", fleet.DefaultClaimAfter, "with --coordinate: how long a silent worker's email waits before another worker takes it over")
}

// Coordination fills in a coordinated fleet's settings (--coordinate,
// --fleet, --join-timeout, --claim-after) and reports the workers joining
// on progress. It refuses what a coordinated fleet cannot do.
func (f Fleet) Coordination(c *fleet.Config, progress io.Writer) error {
	if f.Coordinate == "" {
		if f.Name != "" {
			return exit.Usagef("--fleet names a coordinated fleet: give --coordinate redis://HOST:PORT/DB too")
		}
		return nil
	}
	if f.CompareStores || f.Processes {
		return exit.Usagef("--coordinate runs the fleet's workers wherever they join: --compare-stores and --processes do not go with it")
	}
	c.Coordinate, c.Name, c.JoinTimeout, c.ClaimAfter = f.Coordinate, f.Name, f.JoinTimeout, f.ClaimAfter
	if c.JoinTimeout <= 0 || c.ClaimAfter <= 0 {
		return exit.Usagef("--join-timeout and --claim-after must be above 0")
	}
	c.OnJoin = func(joined, want int) {
		fmt.Fprintf(progress, "fleet %s: %d of %d workers joined\n", f.Name, joined, want)
	}
	return nil
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
