package scoring

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// dominatedPlain is the front rule as Dominated's doc comment states it,
// written the straightforward way (every pair, the rows' maps, PairAll4):
// the fast rule must give its verdicts.
func dominatedPlain(rows []FrontRow, objs []Objective) []bool {
	out := make([]bool, len(rows))
	for i := range rows {
		for j := range rows {
			if i != j && plainDominates(rows[j], rows[i], objs) {
				out[i] = true
				break
			}
		}
	}
	return out
}

func plainDominates(a, b FrontRow, objs []Objective) bool {
	better := false
	for _, o := range objs {
		if plainBetterOn(b, a, o) {
			return false
		}
		better = better || plainBetterOn(a, b, o)
	}
	return better
}

func plainBetterOn(a, b FrontRow, o Objective) bool {
	sa, sb := a.Figures[o.Figure], b.Figures[o.Figure]
	if o.Figure != "all4_right" || len(a.All4ByEmail) == 0 || len(b.All4ByEmail) == 0 || sa.N == 0 || sb.N == 0 {
		return ClearlyBetter(sa, sb, o.Higher)
	}
	if sa.N >= 2 && sb.N >= 2 && !ClearlyBetter(sa, sb, o.Higher) {
		return false
	}
	pair := PairAll4(a.All4ByEmail, b.All4ByEmail)
	return pair.OnlyA > pair.OnlyB && pair.P < FrontSignificance
}

// randomFrontRows are rows with ties (few distinct values), figures
// missing or unmeasured (N 0), repeats with spread, repeated rows, and,
// on most rows, per-email answers over emails numbered past one 64-bit
// word (negative numbers too), right with a per-row skill so that
// McNemar's test finds real gaps.
func randomFrontRows(rng *rand.Rand, n int, objs []Objective) []FrontRow {
	rows := make([]FrontRow, n)
	for i := range rows {
		if i > 0 && rng.IntN(8) == 0 {
			rows[i] = rows[rng.IntN(i)] // a repeated row
			continue
		}
		figs := map[string]Stat{}
		for _, o := range objs {
			switch rng.IntN(10) {
			case 0: // missing
				continue
			case 1: // present, not measured
				figs[o.Figure] = Stat{}
				continue
			}
			lo := float64(rng.IntN(5))
			hi := lo
			if rng.IntN(3) == 0 {
				hi += float64(rng.IntN(3))
			}
			nRuns := 1
			if hi > lo || rng.IntN(3) == 0 {
				nRuns = 2 + rng.IntN(3)
			}
			if rng.IntN(50) == 0 { // a spread upside down (Min > Max)
				lo, hi = hi+1, lo
			}
			figs[o.Figure] = Stat{Median: (lo + hi) / 2, Min: lo, Max: hi, N: nRuns}
		}
		rows[i].Figures = figs
		switch rng.IntN(6) {
		case 0: // no per-email answers
		case 1:
			rows[i].All4ByEmail = map[int]bool{}
		default:
			skill := rng.Float64()
			rows[i].All4ByEmail = map[int]bool{}
			for id := -10; id < 140; id++ {
				if rng.IntN(10) > 0 { // most emails answered
					rows[i].All4ByEmail[id] = rng.Float64() < skill
				}
			}
		}
	}
	return rows
}

func TestDominatedFastEqualsPlain(t *testing.T) {
	objSets := [][]Objective{
		TradeOffObjectives,
		{{Figure: "all4_right", Higher: true}},
		{{Figure: "p95_wait_outage_s"}, {Figure: "all4_right"}}, // all-4-right the wrong way round
		{{Figure: "calls_to_broken_outage", Higher: true}, {Figure: "all4_right", Higher: true}, {Figure: "all4_right", Higher: true}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	dominated, front := 0, 0
	for trial := range 300 {
		objs := objSets[trial%len(objSets)]
		rows := randomFrontRows(rng, 1+rng.IntN(120), objs)
		want := dominatedPlain(rows, objs)
		got := Dominated(rows, objs)
		if !slices.Equal(got, want) {
			for i := range rows {
				if got[i] != want[i] {
					t.Fatalf("trial %d (%d rows, objectives %v): row %d dominated %v, the plain rule says %v (figures %v)",
						trial, len(rows), objs, i, got[i], want[i], rows[i].Figures)
				}
			}
		}
		for _, d := range want {
			if d {
				dominated++
			} else {
				front++
			}
		}
	}
	if dominated == 0 || front == 0 {
		t.Errorf("the random rows test nothing: %d dominated, %d on the front", dominated, front)
	}
}

// TestDominatedMcNemarDecides checks that the random rows exercise
// McNemar's test: on all-4-right alone, with one repeat, rows with
// answers are dominated only where the test says so.
func TestDominatedMcNemarDecides(t *testing.T) {
	objs := []Objective{{Figure: "all4_right", Higher: true}}
	rng := rand.New(rand.NewPCG(3, 4))
	bySpread, byTest := 0, 0
	for range 50 {
		rows := randomFrontRows(rng, 80, objs)
		withoutAnswers := make([]FrontRow, len(rows))
		for i, r := range rows {
			withoutAnswers[i] = FrontRow{Figures: r.Figures}
		}
		got, spreadOnly := Dominated(rows, objs), Dominated(withoutAnswers, objs)
		for i := range got {
			if spreadOnly[i] {
				bySpread++
			}
			if got[i] {
				byTest++
			}
		}
		if !slices.Equal(got, dominatedPlain(rows, objs)) {
			t.Fatal("the fast rule differs from the plain one")
		}
	}
	if byTest == 0 || byTest == bySpread {
		t.Errorf("McNemar's test changed nothing: %d dominated with answers, %d by the spread alone", byTest, bySpread)
	}
}

func TestDominatedContextCancelled(t *testing.T) {
	rows := benchFrontRows(2000, false, false, true)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if out, err := DominatedContext(ctx, rows, TradeOffObjectives); !errors.Is(err, context.Canceled) || out != nil {
		t.Errorf("cancelled: %d verdicts, error %v", len(out), err)
	}
	if _, err := AggregateSweepContext(ctx, []SweepSetting{{Scenario: "busy"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("AggregateSweepContext cancelled: error %v", err)
	}
}

// benchFrontRows are n settings of a sweep as its table reads them: one
// repeat, p95 wait in seconds, all-4-right in 120ths, calls counted;
// with emails, each carries 120 emails' answers as the dashboard's rows
// do. tied rows are all alike, as in a sweep of 5 emails where no setting
// beats another (p95 wait not measured, 80% right, no calls). traded rows
// all differ and all trade p95 wait for calls: every row is on the front,
// so every pair is compared, the rule's worst case.
func benchFrontRows(n int, emails, tied, traded bool) []FrontRow {
	rng := rand.New(rand.NewPCG(5, 6))
	rows := make([]FrontRow, n)
	for i := range rows {
		timeout := float64(1 + rng.IntN(10))
		p95, all4, calls := timeout*(1+rng.Float64()), float64(90+rng.IntN(25))/120, float64(rng.IntN(200))
		if traded {
			p95, calls = float64(i), float64(n-i)
		}
		if tied {
			rows[i].Figures = map[string]Stat{"all4_right": {Median: 0.8, Min: 0.8, Max: 0.8, N: 1}, "calls_to_broken_outage": {N: 1}}
			continue
		}
		rows[i].Figures = map[string]Stat{
			"p95_wait_outage_s":      {Median: p95, Min: p95, Max: p95, N: 1},
			"all4_right":             {Median: all4, Min: all4, Max: all4, N: 1},
			"calls_to_broken_outage": {Median: calls, Min: calls, Max: calls, N: 1},
			"median_wait_outage_s":   {Median: p95 / 2, Min: p95 / 2, Max: p95 / 2, N: 1},
		}
		if emails {
			rows[i].All4ByEmail = make(map[int]bool, 120)
			for id := 1; id <= 120; id++ {
				rows[i].All4ByEmail[id] = rng.Float64() < all4
			}
		}
	}
	return rows
}

// BenchmarkDominated10k is the front rule over a 10,000-setting sweep:
// the table's rows (summaries alone), the dashboard's (with each
// setting's per-email answers), rows all tied, and rows all on the front.
func BenchmarkDominated10k(b *testing.B) {
	for _, tc := range []struct {
		name                 string
		emails, tied, traded bool
	}{{"table", false, false, false}, {"dashboard", true, false, false}, {"tied", false, true, false}, {"all-front", false, false, true}} {
		rows := benchFrontRows(10_000, tc.emails, tc.tied, tc.traded)
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				Dominated(rows, TradeOffObjectives)
			}
		})
	}
}

// TestStarvedPoolDoesNotDominate: a setting whose worker pool rejected
// half the emails answers the rest better (all4_right is over the emails
// answered), but it does not dominate a setting that answered everyone:
// rejected is an objective of its own.
func TestStarvedPoolDoesNotDominate(t *testing.T) {
	one := func(v float64) Stat { return Stat{Median: v, Min: v, Max: v, N: 1} }
	starved := FrontRow{Figures: map[string]Stat{"p95_wait_outage_s": one(1), "all4_right": one(0.99), "calls_to_broken_outage": one(10), "rejected": one(50)}}
	served := FrontRow{Figures: map[string]Stat{"p95_wait_outage_s": one(1), "all4_right": one(0.90), "calls_to_broken_outage": one(10), "rejected": one(0)}}
	if got := Dominated([]FrontRow{starved, served}, TradeOffObjectives); got[0] || got[1] {
		t.Errorf("dominated %v, want both on the front: one answers better, the other answers everyone", got)
	}
	if h, ok := HigherIsBetter("rejected"); !ok || h {
		t.Errorf("rejected: higher %v, known %v; want lower is better", h, ok)
	}
}
