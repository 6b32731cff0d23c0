package format

import (
	"testing"
	"time"
)

func TestCells(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct{ got, want string }{
		{Cell(1234*ms, 1), "1.2s"},
		{Cell(1234*ms, 2), "1.23s"},
		{Cell(90*time.Second, 0), "90s"},
		{Cell(-20*ms, 1), "0.0s"},
		{DurFine(234 * ms), "0.23 s"},
		{Setting(5 * time.Second), "5 s"},
		{Setting(2500 * ms), "2.5 s"},
		{Rate(12.34, "tokens"), "12.3 tokens/s"},
		{PercentOf(17, 20), "85%"},
		{PercentOf(0, 0), Dash},
		{DurOf(20*time.Second, 60700*ms), "20.0/60.7 s"},
		{Money(0.0226194), "0.022619"},
		{Secs3(0.375), "0.375"},
		{GoDuration(90 * time.Second), "1m30s"},
		{GoDuration(250 * ms), "250ms"},
		{Elapsed(20 * time.Second), "  20.0s"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
