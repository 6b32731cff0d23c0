package report

import (
	"math"
)

// McNemarExact is the two-sided exact McNemar test for paired yes/no
// outcomes: b and c are the discordant pairs (yes in one run only, yes in the
// other only). Under the null hypothesis each discordant pair goes either way
// with probability ½, so the p-value is twice the smaller binomial tail,
// capped at 1. It is 1 when there are no discordant pairs.
func McNemarExact(b, c int) float64 {
	n := b + c
	if n == 0 {
		return 1
	}
	k := min(b, c)
	// Sum the tail in log space so large counts neither overflow nor underflow.
	lnHalfN := float64(n) * math.Log(0.5)
	lgN1, _ := math.Lgamma(float64(n + 1))
	tail := 0.0
	for i := 0; i <= k; i++ {
		lgI, _ := math.Lgamma(float64(i + 1))
		lgNI, _ := math.Lgamma(float64(n - i + 1))
		tail += math.Exp(lgN1 - lgI - lgNI + lnHalfN)
	}
	return math.Min(1, 2*tail)
}

// Pair compares two runs of the same emails.
type Pair struct {
	A, B int // indices into the report's runs
	// N is the number of emails both runs answered: the emails the McNemar
	// test is over.
	N int
	// All4A and All4B are each run's all-4-right over the emails it
	// answered: its summary's all4_right, the figure every view shows.
	All4A, All4B float64
	// OnlyA and OnlyB count emails right in one run and not the other: the
	// discordant pairs the McNemar test uses.
	OnlyA, OnlyB int
	// P is the exact McNemar p-value.
	P float64
	// MedianWaitA and MedianWaitB are the median waits of emails sent during
	// the outage (seconds), nil when a run had none.
	MedianWaitA, MedianWaitB *float64
}

// DiffAll4 is B's all-4-right minus A's, as a share.
func (p Pair) DiffAll4() float64 { return p.All4B - p.All4A }

// DiffMedianWait is B's median wait in the outage minus A's, in seconds; ok
// is false when either run had no outage waits.
func (p Pair) DiffMedianWait() (float64, bool) {
	if p.MedianWaitA == nil || p.MedianWaitB == nil {
		return 0, false
	}
	return *p.MedianWaitB - *p.MedianWaitA, true
}

// sameEmails reports whether two runs were given the same emails: the
// same configured number of the data set's emails, in the same order (a
// run cut short still pairs with a whole one, over the emails both
// answered).
func sameEmails(a, b *Run) bool {
	return a.Info.Emails > 0 && a.Info.Emails == b.Info.Emails
}

// Pairs compares every two runs of the same emails, in order.
func Pairs(runs []*Run) []Pair {
	var out []Pair
	for i := range runs {
		for j := i + 1; j < len(runs); j++ {
			if p, ok := pairOf(runs, i, j); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// MeaningfulPairs are the comparisons worth reading: among runs of the
// same outage (and the same emails), each run against the first of them
// listed — with `drill compare`'s order, each policy against the first
// policy.
func MeaningfulPairs(runs []*Run) []Pair {
	first := map[string]int{}
	var out []Pair
	for j, r := range runs {
		i, ok := first[r.Info.Outage]
		if !ok {
			first[r.Info.Outage] = j
			continue
		}
		if p, ok := pairOf(runs, i, j); ok {
			out = append(out, p)
		}
	}
	return out
}

// pairOf compares runs i and j, if they were given the same emails.
func pairOf(runs []*Run, i, j int) (Pair, bool) {
	a, b := runs[i], runs[j]
	if !sameEmails(a, b) {
		return Pair{}, false
	}
	p := Pair{A: i, B: j, All4A: a.Summary.All4Right, All4B: b.Summary.All4Right}
	answeredB := map[int]Email{}
	for _, e := range b.Emails {
		if e.Answered {
			answeredB[e.ID] = e
		}
	}
	for _, ea := range a.Emails {
		eb, ok := answeredB[ea.ID]
		if !ea.Answered || !ok {
			continue
		}
		p.N++
		ya, yb := ea.All4, eb.All4
		switch {
		case ya && !yb:
			p.OnlyA++
		case yb && !ya:
			p.OnlyB++
		}
	}
	p.P = McNemarExact(p.OnlyA, p.OnlyB)
	p.MedianWaitA = a.Summary.MedianWaitOutageS
	p.MedianWaitB = b.Summary.MedianWaitOutageS
	return p, true
}
