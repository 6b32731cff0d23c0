package plain

import (
	"fmt"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// Progress is drill run's progress line, read from the run's fold:
// elapsed, sent, answered, the target breaker's state and the attempts to
// the target's model, then the emails rejected by the worker pool and cut
// off by the run's end, when there are any.
func Progress(f *scoring.Fold, elapsed time.Duration) string {
	target := f.Target()
	state := "none"
	for _, r := range f.Info.Rungs {
		if r.Name == target && r.HasBreaker {
			state = f.Breaker(target).State
		}
	}
	if target == "" {
		target = event.ServedPrimary
	}
	line := fmt.Sprintf("%s  sent %d/%d  answered %d  breaker %s  calls to %s %d",
		format.Elapsed(elapsed), f.Sent(), f.Info.Emails, f.Served().Answered(), state, target, f.AttemptsPerSecond(target).Sum())
	if n := f.Served().Rejected; n > 0 {
		line += fmt.Sprintf("  rejected %d", n)
	}
	if n := f.Served().Cancelled; n > 0 {
		line += fmt.Sprintf("  cut off %d", n)
	}
	return line
}
