package workload

import (
	"testing"
	"time"
)

// TestDefaultWindow: the chapter's window for a minute of sending or more;
// for less, a quarter to two thirds of the sending, at least a millisecond
// long.
func TestDefaultWindow(t *testing.T) {
	for _, c := range []struct {
		emails   int
		rate     float64
		from, to time.Duration
	}{
		{120, 2, 15 * time.Second, 40 * time.Second},
		{1000, 2, 15 * time.Second, 40 * time.Second},
		{120, 10, 3 * time.Second, 8 * time.Second},
		{60, 2, 7500 * time.Millisecond, 20 * time.Second},
		{40, 2, 5 * time.Second, 13333 * time.Millisecond},
		{1, 1000, 0, time.Millisecond},
		{0, 2, 15 * time.Second, 40 * time.Second},
		{120, 0, 15 * time.Second, 40 * time.Second},
	} {
		from, to := DefaultWindow(c.emails, c.rate)
		if from != c.from || to != c.to {
			t.Errorf("DefaultWindow(%d, %v) = %v–%v, want %v–%v", c.emails, c.rate, from, to, c.from, c.to)
		}
	}
}
