package drills

import (
	"fmt"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/workload"
)

// Errs are the errors the drills' outcomes end drill with, one per run
// that did not complete: exit.ErrInterrupted (130) for a run the user
// stopped, exit.ErrAborted (3) with the fold's abort reason, and a failed
// run's error (1). Each names the run: its number, outage, policy and seed.
func Errs(cfgs []workload.Config, outs []vclock.Outcome) []error {
	var errs []error
	for i, o := range outs {
		what := fmt.Sprintf("run %d (%s / %s, seed %d)", i+1, cfgs[i].Outage, cfgs[i].Policy.Name, cfgs[i].Seed)
		switch {
		case o.Status == event.StatusInterrupted:
			errs = append(errs, exit.ErrInterrupted)
		case o.Status == event.StatusAborted:
			errs = append(errs, fmt.Errorf("%s: %w %s", what, exit.ErrAborted, plain.AbortReason(o.Summary)))
		case o.Error != "":
			errs = append(errs, fmt.Errorf("%s: %s", what, o.Error))
		}
	}
	return errs
}
