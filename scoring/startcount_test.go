package scoring

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestStartCountAsARecount plays random attempts (offsets that never run
// backwards, many at the same instant, none failing for the first 8,000
// events and then some, some ending without a logged start, some in
// flight for long) and checks after every
// event that the count of starts inside the observed window is a recount
// of every start kept in full.
func TestStartCountAsARecount(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var c startCount
		open := map[int]time.Duration{} // attempt -> start
		var all []time.Duration
		var first, last time.Duration
		failed := false
		at := time.Duration(0)
		next := 0
		earliest := func() (time.Duration, bool) {
			var e time.Duration
			ok := false
			for _, s := range open {
				if !ok || s < e {
					e, ok = s, true
				}
			}
			return e, ok
		}
		for step := range 20000 {
			if rng.IntN(3) == 0 { // a third of events share the last one's instant
				at += time.Duration(rng.IntN(5)) * time.Millisecond
			}
			switch r := rng.IntN(10); {
			case r < 5 || len(open) == 0:
				open[next] = at
				next++
				all = append(all, at)
				c.start(at, earliest)
			default:
				var id int
				for id = range open { // any attempt in flight
					break
				}
				started, ok := open[id], true
				if r == 9 { // an end whose start the log does not hold
					started, ok = at, false
				}
				if ok {
					delete(open, id)
				}
				if step > 8000 && rng.IntN(20) == 0 { // it failed, after a healthy start
					if !failed || started < first {
						first = started
					}
					if !failed || at > last {
						last = at
					}
					failed = true
					c.failed(first, last)
				}
			}
			want := 0
			if failed {
				for _, s := range all {
					if s >= first && s <= last {
						want++
					}
				}
			}
			if got := c.inWindow(); got != want {
				t.Fatalf("seed %d, step %d: %d starts in [%v, %v], a recount finds %d", seed, step, got, first, last, want)
			}
		}
		if len(c.early) > 2*len(open)+2*minTrim {
			t.Errorf("seed %d: %d starts kept with %d in flight", seed, len(c.early), len(open))
		}
	}
}

// TestStartCountKeepsLittleWithoutFailures: a rung that never fails keeps
// only the starts since its earliest attempt in flight, not one a request.
func TestStartCountKeepsLittleWithoutFailures(t *testing.T) {
	var c startCount
	none := func() (time.Duration, bool) { return 0, false }
	for i := range 1_000_000 {
		at := time.Duration(i) * time.Millisecond
		c.start(at, none)
	}
	if len(c.early) > minTrim {
		t.Errorf("%d starts kept after a million ended without a failure, want at most %d", len(c.early), minTrim)
	}
}
