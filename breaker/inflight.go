package breaker

import (
	"fmt"
	"slices"
	"time"

	"github.com/drill-dev/drill/internal/format"
)

// inFlightTrip is the in-flight rule: a call still unanswered InFlightAge
// after it started is a failure signal at once, without waiting for its
// time limit. When InFlightCalls calls of the closed state (of any state,
// with StaleCount) have been out that long, the breaker opens, at the
// moment the last of them reached the age. It reports when and why, or
// false.
func (b *Breaker) inFlightTrip(now time.Time) (time.Time, string, bool) {
	if !b.inFlight {
		return time.Time{}, "", false
	}
	t := b.s.Trip
	var due []time.Time
	for _, f := range b.flights {
		if f.aged || (f.generation != b.generation && b.s.Stale != StaleCount) {
			continue
		}
		if at := f.start.Add(t.InFlightAge); !now.Before(at) {
			due = append(due, at)
		}
	}
	if len(due) < t.InFlightCalls {
		return time.Time{}, "", false
	}
	slices.SortFunc(due, func(a, b time.Time) int { return a.Compare(b) })
	at := due[t.InFlightCalls-1]
	for _, f := range b.flights {
		if !f.aged && !f.start.Add(t.InFlightAge).After(at) {
			f.aged = true // counted once: it cannot trip the next closed state again
		}
	}
	return at, fmt.Sprintf("in-flight age %s: %d calls unanswered", format.GoDuration(t.InFlightAge), len(due)), true
}
