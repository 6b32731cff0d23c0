package scoring

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// McNemarExact is the two-sided exact McNemar test for paired yes/no
// outcomes: b and c are the discordant pairs (yes in one run only, yes in the
// other only). Under the null hypothesis each discordant pair goes either way
// with probability ½, so the p-value is twice the smaller binomial tail
// (gonum's), capped at 1. It is 1 when there are no discordant pairs.
func McNemarExact(b, c int) float64 {
	n := b + c
	if n == 0 {
		return 1
	}
	tail := distuv.Binomial{N: float64(n), P: 0.5}.CDF(float64(min(b, c)))
	return math.Min(1, 2*tail)
}

// PairedAll4 is a paired comparison of two runs of the same emails on
// all-4-right: over the emails both answered, how many were right in one
// run only, and the exact McNemar p-value of that difference.
type PairedAll4 struct {
	// N is the number of emails both runs answered.
	N int
	// OnlyA and OnlyB count the emails right in one run and not the other:
	// the discordant pairs.
	OnlyA, OnlyB int
	// P is the exact McNemar p-value.
	P float64
}

// PairAll4 compares two runs' answered emails, each given as email number
// → all four fields right.
func PairAll4(a, b map[int]bool) PairedAll4 {
	var p PairedAll4
	for id, ya := range a {
		yb, ok := b[id]
		if !ok {
			continue
		}
		p.N++
		switch {
		case ya && !yb:
			p.OnlyA++
		case yb && !ya:
			p.OnlyB++
		}
	}
	p.P = McNemarExact(p.OnlyA, p.OnlyB)
	return p
}
