package sweep

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/journal/journaltest"
	"github.com/drill-dev/drill/scoring"
)

// spreadSweepRun is a repeat of the spread sweep (as in the report's and
// the dashboard's tests): a synthetic busy drill with a breaker.
func spreadSweepRun(seed uint64) scoring.Summary {
	f := scoring.NewFold()
	f.AddAll(journaltest.Run(journaltest.Options{Emails: 40, From: 3, To: 12, Breaker: true, Seed: seed}))
	return f.Summary()
}

// TestTableFrontInsideSpread: two settings whose medians differ by less
// than their repeats' spread (setting 2 is setting 1's runs with its
// better run repeated, so its medians are better on every figure) are
// both on the table's front, as the report marks them.
func TestTableFrontInsideSpread(t *testing.T) {
	var g Grid
	if err := g.Add("trip-failures", []string{"5", "6"}); err != nil {
		t.Fatal(err)
	}
	var planned []Planned
	for k, seeds := range [][]uint64{{6, 8}, {8, 6, 8}} {
		p := Planned{Setting: Setting{{"trip-failures", []string{"5", "6"}[k]}}, Outage: "busy", Policy: "breaker", Seed: 6}
		for _, seed := range seeds {
			p.Runs = append(p.Runs, Ran{Status: "completed", Summary: spreadSweepRun(seed)})
		}
		planned = append(planned, p)
	}
	res, err := Tabulate(context.Background(), g, planned, 3, "virtual", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	a, b := res.Rows[0].Figures, res.Rows[1].Figures
	if b["p95_wait_outage_s"].Median >= a["p95_wait_outage_s"].Median || b["calls_to_broken_outage"].Median >= a["calls_to_broken_outage"].Median ||
		b["all4_right"].Median < a["all4_right"].Median {
		t.Fatalf("setting 2's medians are not better: %+v vs %+v", b, a)
	}
	if res.Rows[0].Dominated || res.Rows[1].Dominated {
		t.Errorf("dominated %v %v: a gap inside the repeats' spread makes no front", res.Rows[0].Dominated, res.Rows[1].Dominated)
	}
}

// BenchmarkTabulate10k is the step between a 10,000-setting sweep's drills
// and its table: aggregating every setting's run and judging the front.
func BenchmarkTabulate10k(b *testing.B) {
	var g Grid
	timeouts := make([]string, 100)
	for i := range timeouts {
		timeouts[i] = fmt.Sprintf("%dms", 100*(i+1))
	}
	retries := []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}
	if err := g.Add("primary-timeout", timeouts); err != nil {
		b.Fatal(err)
	}
	if err := g.Add("primary-retries", retries); err != nil {
		b.Fatal(err)
	}
	runs := make([]scoring.Summary, 16)
	for i := range runs {
		runs[i] = spreadSweepRun(uint64(i + 1))
	}
	var planned []Planned
	for i, timeout := range timeouts {
		for k, r := range retries {
			for range 10 {
				planned = append(planned, Planned{Setting: Setting{{"primary-timeout", timeout}, {"primary-retries", r}}, Outage: "busy", Policy: "breaker",
					Runs: []Ran{{Status: "completed", Summary: runs[(i+k)%len(runs)]}}})
			}
		}
	}
	for b.Loop() {
		if _, err := Tabulate(context.Background(), g, planned, 1, "virtual", time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}
