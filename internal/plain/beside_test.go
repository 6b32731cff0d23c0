package plain

import (
	"testing"

	"github.com/drill-dev/drill/internal/predict"
)

func TestBeside(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	r := &predict.Range{18.125, 18.5}
	for _, tc := range []struct {
		m    *float64
		p    *predict.Range
		want string
	}{
		{f(18.37), r, "measured 18.4 s, predicted 18.1–18.5 s: inside"},
		{f(20), r, "measured 20.0 s, predicted 18.1–18.5 s: 1.5 s later"},
		{f(4), r, "measured 4.0 s, predicted 18.1–18.5 s: 14.1 s earlier"},
		{nil, r, "measured never, predicted 18.1–18.5 s"},
		{f(3), nil, "measured 3.0 s, predicted never"},
		{nil, nil, "measured never, predicted never: as predicted"},
	} {
		if got := Beside(tc.m, tc.p); got != tc.want {
			t.Errorf("Beside = %q, want %q", got, tc.want)
		}
	}
}

func TestBesideCount(t *testing.T) {
	for _, tc := range []struct {
		m    int
		p    predict.Range
		want string
	}{
		{110, predict.Range{102, 103}, "measured 110, predicted 102–103: 7 more"},
		{100, predict.Range{102, 103}, "measured 100, predicted 102–103: 2 fewer"},
		{12, predict.Range{12, 12}, "measured 12, predicted 12: inside"},
	} {
		if got := BesideCount(tc.m, tc.p); got != tc.want {
			t.Errorf("BesideCount(%d, %v) = %q, want %q", tc.m, tc.p, got, tc.want)
		}
	}
}
