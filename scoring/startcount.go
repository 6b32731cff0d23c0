package scoring

import (
	"slices"
	"time"
)

// startCount counts one rung's attempt starts inside its observed failure
// window (Window.Contains of an observed window: from its first failed
// attempt's start to its last one's end, both held) without keeping a start
// for every attempt: a drill proxy serving for hours, or a drill of a
// million emails, would otherwise hold one offset a request.
//
// It relies on the log's rule that offsets never run backwards (event.Log
// enforces it, a journal that breaks it is invalid): a failure's end is
// then at or after every start folded before it, so each failure leaves
// every start so far at or before the window's end, and every start folded
// after the window exists is at or after its beginning. The window's
// beginning can still move back, to the start of an attempt that was in
// flight, so the starts before it are kept from the earliest start still in
// flight on.
type startCount struct {
	early    []time.Duration // starts before the window (all of them before any failure), ascending
	inside   int             // starts at or after the window's beginning
	tail     int             // of those, starts after its end (folded since the latest failure)
	windowed bool            // a failure has opened the window
	from, to time.Duration   // the window, once windowed
	trimAt   int             // the length of early that makes start trim it
}

// minTrim is the shortest early list start trims.
const minTrim = 1024

// start folds an attempt start at offset at, the latest offset folded.
// open returns the earliest start of the rung's attempts still in flight,
// for trimming.
func (c *startCount) start(at time.Duration, open func() (time.Duration, bool)) {
	if c.windowed {
		c.inside++
		if at > c.to {
			c.tail++
		}
		return
	}
	c.early = append(c.early, at)
	if len(c.early) >= max(c.trimAt, minTrim) {
		c.trim(at, open)
	}
}

// trim drops the starts no failure can bring into the window: those before
// the earliest start still in flight (a later failure's attempt starts
// there or after), or, with none in flight, before now, the latest offset
// (a failure logged without its start begins at its own offset).
func (c *startCount) trim(now time.Duration, open func() (time.Duration, bool)) {
	bound := now
	if at, ok := open(); ok {
		bound = min(bound, at)
	}
	i, _ := slices.BinarySearch(c.early, bound) // the first start at or after bound
	c.early = slices.Delete(c.early, 0, i)
	c.trimAt = 2 * len(c.early)
}

// failed folds a failure that left the rung's window from..to.
func (c *startCount) failed(from, to time.Duration) {
	if !c.windowed || from < c.from {
		i, _ := slices.BinarySearch(c.early, from)
		c.inside += len(c.early) - i
		c.early = c.early[:i]
	}
	// Every start folded so far is at or before this failure's end.
	c.windowed, c.from, c.to, c.tail = true, from, to, 0
}

// inWindow is how many starts fall inside the window (none without one).
func (c *startCount) inWindow() int {
	if c == nil {
		return 0
	}
	return c.inside - c.tail
}
