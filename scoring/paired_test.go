package scoring

import (
	"math"
	"testing"
)

func TestMcNemarExact(t *testing.T) {
	cases := []struct {
		b, c int
		want float64
	}{
		{0, 0, 1},
		{0, 5, 0.0625},
		{3, 7, 0.34375},
		{7, 3, 0.34375},
		{5, 5, 1},
		{0, 1, 1},
		{2, 10, 0.0386},
	}
	for _, c := range cases {
		if got := McNemarExact(c.b, c.c); math.Abs(got-c.want) > 5e-4 {
			t.Errorf("McNemarExact(%d, %d) = %.5f, want %.5f", c.b, c.c, got, c.want)
		}
	}
	if p := McNemarExact(40000, 41000); p <= 0 || p >= 0.05 || math.IsNaN(p) {
		t.Errorf("McNemarExact on large counts = %v, want a small p-value", p)
	}
}

// TestPairAll4 counts the discordant emails over the emails both runs
// answered only.
func TestPairAll4(t *testing.T) {
	a := map[int]bool{1: true, 2: true, 3: false, 4: true}
	b := map[int]bool{1: true, 2: false, 3: true, 5: false}
	p := PairAll4(a, b)
	if p.N != 3 || p.OnlyA != 1 || p.OnlyB != 1 || p.P != 1 {
		t.Errorf("%+v, want N 3, one right in each only, p 1", p)
	}
}
