package vclock

import (
	"runtime/debug"
	"sync/atomic"
)

// batchGCPercent is the GOGC of a virtual-clock process whose drills are
// all small (a sweep's, a comparison's), unless the environment sets GOGC.
// Such a process holds little for long: each drill's log is released as it
// is read and its fold is a few hundred kilobytes, so what the collector
// finds live is the drills in flight. Collecting at sharedGCPercent then
// runs a cycle every few megabytes allocated, and every cycle scans the
// stacks of every email's goroutine and shrinks those it can, which the
// next call through the SDK grows again; collecting less often costs a
// larger heap of short-lived garbage instead.
const batchGCPercent = 200

// smallDrill is the most emails a drill of a small batch has
// (smallDrills).
const smallDrill = 10_000

// smallDrills reports whether jobs are a batch of small drills: more than
// one, none over smallDrill emails.
func smallDrills(jobs []Job) bool {
	if len(jobs) < 2 {
		return false
	}
	for _, j := range jobs {
		if j.Config.Emails > smallDrill {
			return false
		}
	}
	return true
}

// gcChosen is set when this process is a virtual-clock child that chose
// its own GOGC (the environment sets none): only then does setGCPercent
// change it, never in a test process that runs a body in-process.
var gcChosen atomic.Bool

// setGCPercent sets this child's GOGC to p, if it chose its own.
func setGCPercent(p int) {
	if gcChosen.Load() {
		debug.SetGCPercent(p)
	}
}
