package drillfile

import (
	"fmt"
	"slices"
	"strings"
)

// Fleet is how drill fleet runs the drill: how many replicas, how emails
// are routed to them and where their breakers keep their state. Flags
// given override it.
type Fleet struct {
	// Replicas is the number of replicas, 1–64 (default 8).
	Replicas *Int `yaml:"replicas"`
	// Routing is round-robin (default) or random (seeded by the workload's seed).
	Routing string `yaml:"routing"`
	// BreakerStore is local (default: each replica its own breakers) or a
	// redis://HOST:PORT/DB URL (one shared breaker state per rung).
	BreakerStore string `yaml:"breaker_store"`
}

// Fleet routings and the local breaker store, as drill fleet spells them.
var (
	FleetRoutings = []string{"round-robin", "random"}
	// FleetStoreLocal is the breaker_store of per-replica breakers.
	FleetStoreLocal = "local"
)

// checkFleet checks the fleet: block and the windows' replicas.
func (f *File) checkFleet() []error {
	var errs []error
	add := func(path, format string, a ...any) { errs = append(errs, f.at(path, format, a...)) }
	n := Int(8)
	if fl := f.Fleet; fl != nil {
		if fl.Replicas != nil {
			n = *fl.Replicas
			if n < 1 || n > 64 {
				add("$.fleet.replicas", "replicas must be between 1 and 64, got %d", n)
			}
		}
		if fl.Routing != "" && !slices.Contains(FleetRoutings, fl.Routing) {
			add("$.fleet.routing", "unknown routing %q (valid: %s)", fl.Routing, strings.Join(FleetRoutings, ", "))
		}
		if s := fl.BreakerStore; s != "" && s != FleetStoreLocal && !strings.HasPrefix(s, "redis://") {
			add("$.fleet.breaker_store", "unknown breaker_store %q (valid: local, redis://HOST:PORT/DB)", s)
		}
	}
	for i, w := range f.Outages {
		for j, r := range w.Replicas {
			if r < 1 || (f.Fleet != nil && Int(r) > n) {
				add(fmt.Sprintf("$.outages[%d].replicas[%d]", i, j), "replica %d is not one of the fleet's 1–%d", r, n)
			}
		}
	}
	return errs
}
