package report

import (
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// runOf is a run of n answered emails, the first right of them all 4 right.
func runOf(n, right int) *Run {
	r := &Run{}
	for id := 1; id <= n; id++ {
		r.Emails = append(r.Emails, Email{ID: id, Finished: true, Answered: true, All4: id <= right})
	}
	return r
}

func one(v float64) scoring.Stat { return scoring.Stat{Median: v, Min: v, Max: v, N: 1} }

// The case: one repeat each, B 3 points of all 4 right ahead on
// the same 120 emails (McNemar calls it chance), A clearly faster. The gap
// does not keep B on the front; A's wait does put A there, and B is
// dominated. With a significant gap both stay on the front.
func TestFrontNeedsAClearDifference(t *testing.T) {
	runs := []*Run{runOf(120, 102), runOf(120, 106), runOf(120, 80)}
	a := SweepPoint{Setting: 1, Scenario: "busy", Runs: []int{0}, P95: one(4.1), All4: one(102.0 / 120), Calls: one(11)}
	b := SweepPoint{Setting: 2, Scenario: "busy", Runs: []int{1}, P95: one(4.5), All4: one(106.0 / 120), Calls: one(11)}
	to := &TradeOff{Scenarios: []string{"busy"}, Points: []SweepPoint{a, b}}
	to.markDominated(runs)
	if to.Points[0].Dominated || !to.Points[1].Dominated {
		t.Errorf("dominated %v %v: want A on the front and B (ahead on all 4 right by chance) dominated", to.Points[0].Dominated, to.Points[1].Dominated)
	}
	// A is 22 points behind on the same emails: significant, so both stay.
	a.Runs, a.All4 = []int{2}, one(80.0/120)
	to = &TradeOff{Scenarios: []string{"busy"}, Points: []SweepPoint{a, b}}
	to.markDominated(runs)
	if to.Points[0].Dominated || to.Points[1].Dominated {
		t.Errorf("dominated %v %v: want both on the front", to.Points[0].Dominated, to.Points[1].Dominated)
	}
}

// With repeats, a difference inside their spread is no difference.
func TestFrontSpreadCoversGap(t *testing.T) {
	spread := func(lo, med, hi float64) scoring.Stat { return scoring.Stat{Median: med, Min: lo, Max: hi, N: 3} }
	runs := []*Run{runOf(120, 100), runOf(120, 100)}
	a := SweepPoint{Scenario: "busy", Runs: []int{0}, P95: spread(3, 4.0, 5), All4: spread(0.8, 0.83, 0.86), Calls: one(11)}
	b := SweepPoint{Scenario: "busy", Runs: []int{1}, P95: spread(3.5, 4.5, 5.5), All4: spread(0.8, 0.83, 0.86), Calls: one(11)}
	to := &TradeOff{Scenarios: []string{"busy"}, Points: []SweepPoint{a, b}}
	to.markDominated(runs)
	if to.Points[0].Dominated || to.Points[1].Dominated {
		t.Error("a gap of medians inside the repeats' spread dominates")
	}
	b.P95 = spread(6, 7, 8)
	to = &TradeOff{Scenarios: []string{"busy"}, Points: []SweepPoint{a, b}}
	to.markDominated(runs)
	if to.Points[0].Dominated || !to.Points[1].Dominated {
		t.Error("a wait shorter in every repeat does not dominate")
	}
}

// The trade-off chart's axes start at zero: points at 83–88 % all 4 right
// do not fill its height.
func TestTradeOffAxesFromZero(t *testing.T) {
	to := &TradeOff{Scenarios: []string{"busy"}, Points: []SweepPoint{
		{Setting: 1, Scenario: "busy", P95: one(4.1), All4: one(0.83), Calls: one(11)},
		{Setting: 2, Scenario: "busy", P95: one(4.5), All4: one(0.88), Calls: one(30)},
	}}
	p, err := to.Chart("busy")
	if err != nil {
		t.Fatal(err)
	}
	if p.Y.Min != 0 || p.Y.Max < 88 || p.X.Min != 0 {
		t.Errorf("axes x from %v, y %v–%v: want both from 0", p.X.Min, p.Y.Min, p.Y.Max)
	}
}
