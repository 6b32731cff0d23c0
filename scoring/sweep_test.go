package scoring

import (
	"math"
	"slices"
	"testing"
)

func TestStatOf(t *testing.T) {
	if s := StatOf([]float64{3, 1, 2}); s != (Stat{Median: 2, Min: 1, Max: 3, N: 3}) {
		t.Errorf("odd: %+v", s)
	}
	if s := StatOf([]float64{4, 1, 2, 10}); s != (Stat{Median: 3, Min: 1, Max: 10, N: 4}) {
		t.Errorf("even: %+v", s)
	}
	if s := StatOf(nil); s != (Stat{}) {
		t.Errorf("none: %+v", s)
	}
	if s := StatOf([]float64{4, 1, 2, 10}); s.Spread() != 9 {
		t.Errorf("spread = %v", s.Spread())
	}
}

func TestAggregate(t *testing.T) {
	got := Aggregate([]map[string]float64{
		{"a": 1, "b": 5},
		{"a": 3, "b": math.NaN()},
		{"a": 2},
	})
	if got["a"] != (Stat{Median: 2, Min: 1, Max: 3, N: 3}) {
		t.Errorf("a = %+v", got["a"])
	}
	if got["b"] != (Stat{Median: 5, Min: 5, Max: 5, N: 1}) {
		t.Errorf("b (measured once) = %+v", got["b"])
	}
	if _, ok := got["c"]; ok {
		t.Error("a figure no run measured has a Stat")
	}
}

func stats(p95, all4, calls float64) map[string]Stat {
	return map[string]Stat{
		"p95_wait_outage_s":      {Median: p95, Min: p95, Max: p95, N: 1},
		"all4_right":             {Median: all4, Min: all4, Max: all4, N: 1},
		"calls_to_broken_outage": {Median: calls, Min: calls, Max: calls, N: 1},
	}
}

// one is a figure measured by a single run.
func one(v float64) Stat { return Stat{Median: v, Min: v, Max: v, N: 1} }

func TestDominated(t *testing.T) {
	rows := []map[string]Stat{
		stats(1, 0.85, 10), // 0: front (fast)
		stats(2, 0.90, 10), // 1: front (better quality)
		stats(2, 0.85, 10), // 2: dominated by 0 (slower, same quality, same calls)
		stats(1, 0.85, 10), // 3: tie with 0: front
		stats(5, 0.95, 40), // 4: front (best quality)
		stats(5, 0.95, 41), // 5: dominated by 4 (one call more)
		{"all4_right": one(0.99), "calls_to_broken_outage": one(1)}, // 6: no p95: worst there, but best elsewhere: front
		{"all4_right": one(0.5), "calls_to_broken_outage": one(50)}, // 7: no p95, worse everywhere than 6: dominated
	}
	front := make([]FrontRow, len(rows))
	for i, r := range rows {
		front[i] = FrontRow{Figures: r}
	}
	got := Dominated(front, TradeOffObjectives)
	want := []bool{false, false, true, false, false, true, false, true}
	if !slices.Equal(got, want) {
		t.Errorf("Dominated = %v, want %v", got, want)
	}
}

func TestHigherIsBetter(t *testing.T) {
	for _, c := range []struct {
		fig        string
		higher, ok bool
	}{
		{"all4_right", true, true},
		{"all4_right_ci95.0", true, true},
		{"fields_right.urgency", true, true},
		{"p95_wait_outage_s", false, true},
		{"calls_to_broken_outage", false, true},
		{"served.error", false, true},
		{"served.primary", true, true},
		{"seed", false, false},
	} {
		h, ok := HigherIsBetter(c.fig)
		if h != c.higher || ok != c.ok {
			t.Errorf("HigherIsBetter(%s) = %v, %v; want %v, %v", c.fig, h, ok, c.higher, c.ok)
		}
	}
}

func TestOrder(t *testing.T) {
	rows := []map[string]Stat{
		{"x": {Median: 3, N: 1}},
		{},
		{"x": {Median: 1, N: 1}},
		{"x": {Median: 3, N: 1}},
		{"x": {Median: 2, N: 0}}, // not measured
	}
	if got := OrderBy(rows, "x", false); !slices.Equal(got, []int{2, 0, 3, 1, 4}) {
		t.Errorf("ascending = %v", got)
	}
	if got := OrderBy(rows, "x", true); !slices.Equal(got, []int{0, 3, 2, 1, 4}) {
		t.Errorf("descending = %v", got)
	}
}

// TestAggregateSweep: each setting's runs are aggregated from the same
// figure map, a run that never ran is left out, and settings compete only
// within their scenario.
func TestAggregateSweep(t *testing.T) {
	run := func(outage string, p95 float64, answered, calls int) Summary {
		return Summary{Outage: outage, P95WaitOutageS: &p95, EmailsAnswered: answered, All4Right: 0.9,
			Served: Served{Primary: answered}, CallsToBrokenOutage: calls}
	}
	settings := []SweepSetting{
		{Scenario: SweepScenario("busy", nil), Summaries: []Summary{run("busy", 2, 10, 5), run("busy", 4, 10, 7), {}}},
		{Scenario: SweepScenario("busy", nil), Summaries: []Summary{run("busy", 1, 10, 5)}},
		// Worse than both, but the only setting of its scenario: front.
		{Scenario: SweepScenario("busy", []string{"status=429"}), Summaries: []Summary{run("busy", 9, 10, 50)}},
		// Nothing answered yet: no all-4-right figure.
		{Scenario: "hang", Summaries: []Summary{run("hang", 1, 0, 0)}},
	}
	rows, err := AggregateSweep(settings)
	if err != nil {
		t.Fatal(err)
	}
	if got := rows[0].Figures["p95_wait_outage_s"]; got != (Stat{Median: 3, Min: 2, Max: 4, N: 2}) {
		t.Errorf("setting 1 p95: %+v, want the two runs that ran", got)
	}
	if d := []bool{rows[0].Dominated, rows[1].Dominated, rows[2].Dominated}; !slices.Equal(d, []bool{true, false, false}) {
		t.Errorf("dominated %v, want only setting 1 (beaten by 2 in its scenario)", d)
	}
	if settings[2].Scenario != "busy status=429" {
		t.Errorf("scenario %q", settings[2].Scenario)
	}
	if _, ok := rows[3].Figures["all4_right"]; ok {
		t.Error("a setting that answered nothing has an all-4-right figure")
	}
}

// TestSweepServedCountsAreZeroWhenOmitted: the summary leaves served.rules,
// served.handed_over and served.rejected out at 0; a sweep counts them as 0,
// so a setting whose repeats rejected 0, 0 and 9 emails has the median 0,
// not 9.
func TestSweepServedCountsAreZeroWhenOmitted(t *testing.T) {
	run := func(rejected int) Summary {
		return Summary{Outage: "hang", EmailsAnswered: 10, Served: Served{Primary: 10 - rejected, Rejected: rejected}}
	}
	rows, err := AggregateSweep([]SweepSetting{{Scenario: "hang", Summaries: []Summary{run(0), run(0), run(9)}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := rows[0].Figures["served.rejected"]; got != (Stat{Median: 0, Min: 0, Max: 9, N: 3}) {
		t.Errorf("served.rejected over the repeats: %+v, want median 0 (0–9) over 3 runs", got)
	}
	for _, name := range []string{"served.handed_over", "served.rules"} {
		if got := rows[0].Figures[name]; got != (Stat{N: 3}) {
			t.Errorf("%s: %+v, want 0 over 3 runs", name, got)
		}
	}
}

// A gap of medians inside the repeats' spread dominates neither way; a
// gap outside it does. On all 4 right with per-email answers, McNemar's
// test decides too: 4 emails of 120 is chance.
func TestDominatedNeedsAClearGap(t *testing.T) {
	spread := func(lo, med, hi float64) Stat { return Stat{Median: med, Min: lo, Max: hi, N: 3} }
	a := FrontRow{Figures: map[string]Stat{"p95_wait_outage_s": spread(3, 4, 5), "all4_right": one(0.85), "calls_to_broken_outage": one(10)}}
	b := FrontRow{Figures: map[string]Stat{"p95_wait_outage_s": spread(3.5, 4.06, 5.5), "all4_right": one(0.85), "calls_to_broken_outage": one(10)}}
	if got := Dominated([]FrontRow{a, b}, TradeOffObjectives); !slices.Equal(got, []bool{false, false}) {
		t.Errorf("inside the spread: %v", got)
	}
	b.Figures["p95_wait_outage_s"] = spread(5.1, 6, 7)
	if got := Dominated([]FrontRow{a, b}, TradeOffObjectives); !slices.Equal(got, []bool{false, true}) {
		t.Errorf("outside the spread: %v", got)
	}
	answers := func(right int) map[int]bool {
		m := map[int]bool{}
		for id := 1; id <= 120; id++ {
			m[id] = id <= right
		}
		return m
	}
	a = FrontRow{Figures: map[string]Stat{"all4_right": one(100.0 / 120)}, All4ByEmail: answers(100)}
	b = FrontRow{Figures: map[string]Stat{"all4_right": one(104.0 / 120)}, All4ByEmail: answers(104)}
	if got := Dominated([]FrontRow{a, b}, TradeOffObjectives); !slices.Equal(got, []bool{false, false}) {
		t.Errorf("a gap McNemar calls chance: %v", got)
	}
	a.All4ByEmail, a.Figures["all4_right"] = answers(80), one(80.0/120)
	if got := Dominated([]FrontRow{a, b}, TradeOffObjectives); !slices.Equal(got, []bool{true, false}) {
		t.Errorf("a significant gap: %v", got)
	}
}
