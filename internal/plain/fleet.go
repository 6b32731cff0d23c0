package plain

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// Fleet writes a fleet summary as drill fleet prints it: the fleet's
// figures as drill run's table, then a row per replica.
func Fleet(w io.Writer, s scoring.FleetSummary) error {
	if err := Summary(w, s.Fleet); err != nil {
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
		fmt.Fprintf(tw, "%d\t%d\t%s\t%d\t%s\t%d\t%s / %s\t%s\t%s\n", r.Replica, r.EmailsSent, Served(r.Served),
			r.CallsToBrokenOutage, format.Seconds(r.BreakerFirstOpenS), r.BreakerOpens,
			format.Seconds(r.MedianWaitOutageS), format.Seconds(r.P95WaitOutageS), r.BreakerState, store)
	}
	return tw.Flush()
}

// FleetProgress is drill fleet's progress line: the store, drill run's
// progress line for the whole fleet, and the replicas on local breakers
// because the shared store did not answer.
func FleetProgress(store string, f *scoring.FleetFold, elapsed time.Duration) string {
	var local []string
	for _, r := range f.Summary().PerReplica {
		if r.StoreLocal {
			local = append(local, strconv.Itoa(r.Replica))
		}
	}
	extra := ""
	if len(local) > 0 {
		extra = " · on local breakers (store unreachable): replicas " + strings.Join(local, ",")
	}
	return fmt.Sprintf("[%s] %s%s", store, Progress(f.Whole(), elapsed), extra)
}
