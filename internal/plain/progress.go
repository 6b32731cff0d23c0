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
// the target's model.
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
	if n := f.Served().Cancelled; n > 0 {
		line += fmt.Sprintf("  cancelled %d", n)
	}
	return line
}
