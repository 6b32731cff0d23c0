package format

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestLogSecsAsPrintf: LogSecs writes what fmt's "%.3fs" writes of the
// seconds, at the rounding edges, zero, negatives and the extremes.
func TestLogSecsAsPrintf(t *testing.T) {
	ds := []time.Duration{0, 1, -1, 499999, 500000, 500001, 1500000, -1500000, 2500000, time.Second, 1234567890,
		-time.Hour, math.MaxInt64, math.MinInt64}
	r := rand.New(rand.NewPCG(38, 3))
	for range 20000 {
		ds = append(ds, time.Duration(r.Int64N(1<<50)-1<<49), time.Duration(r.IntN(1e7)))
	}
	for _, d := range ds {
		if got, want := LogSecs(d), fmt.Sprintf("%.3fs", d.Seconds()); got != want {
			t.Errorf("LogSecs(%d) = %q, want %q", int64(d), got, want)
		}
	}
}
