package format

import (
	"testing"
	"time"
)

func TestETA(t *testing.T) {
	for _, c := range []struct {
		elapsed     time.Duration
		done, total int
		want        string
	}{
		{10 * time.Second, 0, 10, ""},
		{10 * time.Second, 10, 10, ""},
		{10 * time.Second, 5, 10, ", ETA 10s"},
		{90 * time.Second, 60, 100, ", ETA 1m0s"},
	} {
		if got := ETA(c.elapsed, c.done, c.total); got != c.want {
			t.Errorf("ETA(%s, %d, %d) = %q, want %q", c.elapsed, c.done, c.total, got, c.want)
		}
	}
}
