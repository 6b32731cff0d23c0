package report

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// sweepRun is repeat of setting in a busy-outage sweep: n answered
// emails, the first right of them all 4 right, and its wait and calls in
// the outage.
func sweepRun(t *testing.T, setting, repeat, n, right int, p95 float64, calls int) *Run {
	t.Helper()
	cfg, err := json.Marshal(map[string]SweepTag{"sweep": {Setting: setting, Flags: fmt.Sprintf("--setting %d", setting), Repeat: repeat}})
	if err != nil {
		t.Fatal(err)
	}
	r := &Run{}
	r.Meta.Header.Config = cfg
	r.Summary.Outage = "busy"
	r.Summary.EmailsAnswered, r.Summary.All4Right = n, float64(right)/float64(n)
	r.Summary.P95WaitOutageS = &p95
	r.Summary.CallsToBrokenOutage = calls
	for id := 1; id <= n; id++ {
		r.Emails = append(r.Emails, Email{ID: id, Finished: true, Answered: true, All4: id <= right})
	}
	return r
}

func one(v float64) scoring.Stat { return scoring.Stat{Median: v, Min: v, Max: v, N: 1} }

// dominatedOf is each setting's mark, in setting order.
func dominatedOf(to *TradeOff) []bool {
	out := make([]bool, len(to.Points))
	for i, p := range to.Points {
		out[i] = p.Dominated
	}
	return out
}

// The case: one repeat each, B 3 points of all 4 right ahead on
// the same 120 emails (McNemar calls it chance), A clearly faster. The gap
// does not keep B on the front; A's wait does put A there, and B is
// dominated. With a significant gap both stay on the front.
func TestFrontNeedsAClearDifference(t *testing.T) {
	to := TradeOffOf([]*Run{sweepRun(t, 1, 1, 120, 102, 4.1, 11), sweepRun(t, 2, 1, 120, 106, 4.5, 11)})
	if got := dominatedOf(to); !slices.Equal(got, []bool{false, true}) {
		t.Errorf("dominated %v: want A on the front and B (ahead on all 4 right by chance) dominated", got)
	}
	// A is 22 points behind on the same emails: significant, so both stay.
	to = TradeOffOf([]*Run{sweepRun(t, 1, 1, 120, 80, 4.1, 11), sweepRun(t, 2, 1, 120, 106, 4.5, 11)})
	if got := dominatedOf(to); !slices.Equal(got, []bool{false, false}) {
		t.Errorf("dominated %v: want both on the front", got)
	}
}

// With repeats, a difference inside their spread is no difference.
func TestFrontSpreadCoversGap(t *testing.T) {
	runs := func(bWaits ...float64) []*Run {
		rs := []*Run{sweepRun(t, 1, 1, 120, 100, 3, 11), sweepRun(t, 1, 2, 120, 100, 4, 11), sweepRun(t, 1, 3, 120, 100, 5, 11)}
		for k, w := range bWaits {
			rs = append(rs, sweepRun(t, 2, k+1, 120, 100, w, 11))
		}
		return rs
	}
	if got := dominatedOf(TradeOffOf(runs(3.5, 4.5, 5.5))); !slices.Equal(got, []bool{false, false}) {
		t.Errorf("dominated %v: a gap of medians inside the repeats' spread dominates", got)
	}
	if got := dominatedOf(TradeOffOf(runs(6, 7, 8))); !slices.Equal(got, []bool{false, true}) {
		t.Errorf("dominated %v: a wait longer in every repeat is not dominated", got)
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
