package edge

import (
	"math"
	"testing"
	"time"
)

func TestFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if Finite(v) == nil {
			t.Errorf("Finite(%v) passed", v)
		}
	}
	for _, v := range []float64{0, -1, 1e300, math.SmallestNonzeroFloat64} {
		if err := Finite(v); err != nil {
			t.Errorf("Finite(%v) = %v", v, err)
		}
	}
}

func TestFactor(t *testing.T) {
	for _, c := range []struct {
		v      float64
		zeroOK bool
		ok     bool
	}{
		{1, false, true}, {0.5, false, true}, {MaxFactor, false, true},
		{0, false, false}, {0, true, true}, {-1, true, false},
		{math.NaN(), true, false}, {math.Inf(1), true, false}, {MaxFactor * 2, true, false},
	} {
		if err := Factor(c.v, c.zeroOK); (err == nil) != c.ok {
			t.Errorf("Factor(%v, %v) = %v, want ok %v", c.v, c.zeroOK, err, c.ok)
		}
	}
}

func TestDuration(t *testing.T) {
	if err := Duration(MaxDuration); err != nil {
		t.Errorf("Duration(a week) = %v", err)
	}
	for _, d := range []time.Duration{MaxDuration + 1, math.MaxInt64} {
		if Duration(d) == nil {
			t.Errorf("Duration(%s) passed", d)
		}
	}
}

func TestSpanSaturates(t *testing.T) {
	for _, c := range []struct {
		v    float64
		unit time.Duration
		want time.Duration
	}{
		{7, time.Second, 7 * time.Second},
		{1.5, time.Millisecond, 1500 * time.Microsecond},
		{99999999999999999999, time.Second, MaxDuration},
		{math.Inf(1), time.Second, MaxDuration},
		{math.NaN(), time.Second, 0},
		{-3, time.Second, 0},
		{604800, time.Second, MaxDuration},
	} {
		if got := Span(c.v, c.unit); got != c.want {
			t.Errorf("Span(%v, %v) = %v, want %v", c.v, c.unit, got, c.want)
		}
	}
}

func TestClip(t *testing.T) {
	if got := Clip("gpt-4o", 10); got != "gpt-4o" {
		t.Errorf("Clip kept %q", got)
	}
	got := Clip("ééééé", 5) // 10 bytes; byte 5 is inside the third é
	if got != "éé…[cut 6 bytes]" {
		t.Errorf("Clip = %q", got)
	}
}
