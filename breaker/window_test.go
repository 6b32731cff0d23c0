package breaker

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestWindowKeepsItsCounts checks the window's running counts and sorted
// durations against a recount of its calls after every add and trim.
func TestWindowKeepsItsCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	w := window{span: 2 * time.Second, slowAt: 300 * time.Millisecond, countSlow: true, sorted: true}
	at := time.Unix(0, 0)
	for i := range 20000 {
		at = at.Add(time.Duration(rng.IntN(3000)) * time.Microsecond)
		if i%5000 == 4999 {
			w.reset()
		}
		if rng.IntN(10) == 0 {
			w.trim(at.Add(time.Duration(rng.IntN(3)) * time.Second))
		} else {
			w.add(Call{At: at, Failed: rng.IntN(3) == 0, Duration: time.Duration(rng.IntN(600)) * time.Millisecond})
		}
		var failed, slow int
		var ds []time.Duration
		for _, c := range w.calls {
			if c.Failed {
				failed++
			}
			if c.Duration >= w.slowAt {
				slow++
			}
			ds = append(ds, c.Duration)
		}
		slices.Sort(ds)
		f, s := w.failures, len(w.calls)-w.failures
		if f != failed || s != len(w.calls)-failed || w.slow != slow || !slices.Equal(ds, w.durations) {
			t.Fatalf("step %d: counts %d/%d slow %d durations %d, recount %d/%d slow %d durations %d",
				i, f, s, w.slow, len(w.durations), failed, len(w.calls)-failed, slow, len(ds))
		}
	}
}

// BenchmarkCountRuleFullWindow is the count rule's cost a call with 100,000
// calls in its window (10,000 a second, a 10 s window): it must not grow
// with the window.
func BenchmarkCountRuleFullWindow(b *testing.B) {
	r := &FailuresInWindow{Failures: 1 << 30, Window: 10 * time.Second}
	at := time.Unix(0, 0)
	for range 100000 {
		at = at.Add(100 * time.Microsecond)
		r.Record(Call{At: at})
	}
	b.ResetTimer()
	for i := range b.N {
		at = at.Add(100 * time.Microsecond)
		r.Record(Call{At: at, Failed: i%2 == 0})
	}
}
