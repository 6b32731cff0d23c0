package format

import (
	"fmt"
	"time"

	"github.com/drill-dev/drill/event"
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
	line := fmt.Sprintf("%6.1fs  sent %d/%d  answered %d  breaker %s  calls to %s %d",
		elapsed.Seconds(), f.Sent(), f.Info.Emails, f.Served().Answered(), state, target, f.AttemptsPerSecond(target).Sum())
	if n := f.Served().Cancelled; n > 0 {
		line += fmt.Sprintf("  cancelled %d", n)
	}
	return line
}

// ETA is ", ETA 42s" from the pace so far (done of total after elapsed),
// or "" before anything is done or once everything is.
func ETA(elapsed time.Duration, done, total int) string {
	if done <= 0 || done >= total {
		return ""
	}
	left := time.Duration(float64(elapsed) * float64(total-done) / float64(done))
	return ", ETA " + left.Round(time.Second).String()
}

// ProgressCount is a long command's progress off a terminal, one line: "drill
// sweep: 25/100 emails (25%), ETA 15s".
func ProgressCount(label, unit string, done, total int, eta string) string {
	return fmt.Sprintf("drill %s: %d/%d %s (%d%%)%s", label, done, total, unit, done*100/total, eta)
}

// BarCount is the count after a progress bar on a terminal: "25/100
// emails, ETA 15s".
func BarCount(unit string, done, total int, eta string) string {
	return fmt.Sprintf("%d/%d %s%s", done, total, unit, eta)
}
