package report

import "github.com/drill-dev/drill/scoring"

// Pair compares two runs of the same emails.
type Pair struct {
	A, B int // indices into the report's runs
	// PairedAll4 is the fold's paired test of all-4-right: N emails both
	// runs answered, OnlyA and OnlyB right in one only, P the exact McNemar
	// p-value.
	scoring.PairedAll4
	// All4A and All4B are each run's all-4-right over the emails it
	// answered: its summary's all4_right, the figure every view shows.
	All4A, All4B float64
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
		i, ok := first[r.Summary.OutageLabel()]
		if !ok {
			first[r.Summary.OutageLabel()] = j
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
	p := Pair{A: i, B: j, All4A: a.Summary.All4Right, All4B: b.Summary.All4Right,
		PairedAll4: scoring.PairAll4(a.all4ByAnswered(), b.all4ByAnswered())}
	p.MedianWaitA = a.Summary.MedianWaitOutageS
	p.MedianWaitB = b.Summary.MedianWaitOutageS
	return p, true
}

// all4ByAnswered maps each email the run answered to whether all four
// fields were right: the outcomes a paired test compares.
func (r *Run) all4ByAnswered() map[int]bool {
	out := map[int]bool{}
	for _, e := range r.Emails {
		if e.Answered {
			out[e.ID] = e.All4
		}
	}
	return out
}
