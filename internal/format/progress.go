package format

import (
	"fmt"
	"time"
)

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
