package scoring

import (
	"math"
	"testing"
)

// classDay is a class on one normal day: n emails, primary of them served
// by the primary, right of the scored ones all 4 right.
func classDay(n, primary, right int) ClassSummary {
	cs := ClassSummary{Emails: n, Served: Served{Primary: primary, Backup: n - primary}}
	if n > 0 {
		a := float64(right) / float64(n)
		lo, hi := Wilson(right, n)
		cs.All4Right, cs.All4RightCI95 = &a, &[2]float64{lo, hi}
	}
	return cs
}

func stat(v float64) *Stat { return &Stat{Median: v, Min: v, Max: v, N: 1} }

var defaultBounds = RecommendBounds{WithinS: 5, NormalMaxFallback: DefaultNormalMaxFallback, NormalQuality: NormalQuality{PrimaryAlone: true}}

// TestNormalDayFallbackBound: a setting that leaves more than 5 % of a
// class's emails off the primary on any normal day is not eligible,
// however well it does in the outages; the miss names the worst repeat.
func TestNormalDayFallbackBound(t *testing.T) {
	outages := []OutageStats{{Outage: "hang", P95WaitS: stat(1.2), All4Right: stat(0.8)}}
	alone := classDay(80, 80, 78)
	v := JudgeRecommend(defaultBounds, outages, []NormalDayRun{
		{Setting: classDay(80, 78, 77), PrimaryAlone: alone}, // 2.5 %: within
		{Setting: classDay(80, 70, 75), PrimaryAlone: alone}, // 12.5 %: over
	})
	if v.Eligible() || v.NormalOK || !v.OutagesOK {
		t.Fatalf("eligible %v, normal %v, outages %v", v.Eligible(), v.NormalOK, v.OutagesOK)
	}
	if len(v.Misses) != 1 || v.Misses[0].Bound != BoundNormalMaxFallback || v.Misses[0].Got != 0.125 || v.Misses[0].Outage != "none" {
		t.Errorf("misses %+v", v.Misses)
	}
	if v.Normal.Fallback.Max != 0.125 || v.Normal.Fallback.Min != 0.025 || v.Normal.Emails != 80 {
		t.Errorf("normal %+v", v.Normal)
	}
	// The same setting with the bound lifted to 20 % is eligible.
	b := defaultBounds
	b.NormalMaxFallback = 0.2
	if v := JudgeRecommend(b, outages, []NormalDayRun{{Setting: classDay(80, 70, 75), PrimaryAlone: alone}}); !v.Eligible() {
		t.Errorf("with 20 %%: %+v", v.Misses)
	}
}

// TestNormalDayQualityAgainstThePrimaryAlone: the class's all-4-right
// share on the normal day must not fall below the primary alone's 95 %
// Wilson interval on the same day; a fixed floor replaces it when asked.
func TestNormalDayQualityAgainstThePrimaryAlone(t *testing.T) {
	alone := classDay(80, 80, 78) // 97.5 %, interval from about 91 %
	lo := alone.All4RightCI95[0]
	b := defaultBounds
	b.NormalMaxFallback = 1 // the quality bound alone
	worse := classDay(80, 80, 70)
	v := JudgeRecommend(b, nil, []NormalDayRun{{Setting: worse, PrimaryAlone: alone}})
	if v.NormalOK || len(v.Misses) != 1 || v.Misses[0].Bound != BoundNormalMinAll4Right || v.Misses[0].Want != lo {
		t.Fatalf("70 of 80 against the primary's %.3f: %+v", lo, v.Misses)
	}
	if got := v.Normal.PrimaryAloneCI95; got == nil || got[0] != lo {
		t.Errorf("primary alone's interval %v", got)
	}
	if v := JudgeRecommend(b, nil, []NormalDayRun{{Setting: classDay(80, 80, 75), PrimaryAlone: alone}}); !v.NormalOK {
		t.Errorf("75 of 80 is inside the primary's interval: %+v", v.Misses)
	}
	b.NormalQuality = NormalQuality{Floor: 0.8}
	if v := JudgeRecommend(b, nil, []NormalDayRun{{Setting: worse, PrimaryAlone: alone}}); !v.NormalOK {
		t.Errorf("a floor of 80 %%: %+v", v.Misses)
	}
	b.NormalQuality = NormalQuality{}
	if v := JudgeRecommend(b, nil, []NormalDayRun{{Setting: classDay(80, 80, 10), PrimaryAlone: alone}}); !v.NormalOK {
		t.Errorf("no quality bound: %+v", v.Misses)
	}
}

// TestOutageBounds: the p95 wait at its largest over the repeats against
// within, the median quality against the floor, as before the normal day.
func TestOutageBounds(t *testing.T) {
	b := defaultBounds
	b.MinAll4Right = 0.85
	day := []NormalDayRun{{Setting: classDay(10, 10, 10), PrimaryAlone: classDay(10, 10, 10)}}
	v := JudgeRecommend(b, []OutageStats{
		{Outage: "busy", P95WaitS: &Stat{Median: 1, Max: 1.5, N: 3}, All4Right: stat(0.9)},
		{Outage: "hang", P95WaitS: &Stat{Median: 4, Max: 6, N: 3}, All4Right: stat(0.8)},
	}, day)
	if !v.NormalOK || v.OutagesOK || len(v.Misses) != 2 || v.WorstP95S != 6 || v.WorstAll4 != 0.8 {
		t.Fatalf("%+v", v)
	}
	if w := v.Worst(); w.Bound != BoundWithin || w.Outage != "hang" || math.Abs(w.By-0.2) > 1e-9 {
		t.Errorf("worst miss %+v", w)
	}
	if v := JudgeRecommend(b, []OutageStats{{Outage: "busy"}}, day); !v.Eligible() || v.WorstP95S != -1 || v.WorstAll4 != -1 {
		t.Errorf("nothing measured: %+v", v)
	}
}

// TestChooseSetting: of the eligible settings the best quality in its
// worst outage, then the shortest p95 wait, then the fewest emails off the
// primary on the normal day; with none eligible, the closest that keeps
// the normal day, however much closer one that breaks it would be.
func TestChooseSetting(t *testing.T) {
	ok := func(all4, p95, fallback float64) RecommendVerdict {
		return RecommendVerdict{NormalOK: true, OutagesOK: true, WorstAll4: all4, WorstP95S: p95, Normal: NormalDayFigures{Fallback: Stat{Max: fallback}}}
	}
	vs := []RecommendVerdict{
		{NormalOK: false, OutagesOK: true, WorstAll4: 0.99, WorstP95S: 0.5}, // fastest, but breaks the normal day
		ok(0.9, 3, 0),
		ok(0.95, 4, 0.01),
		ok(0.95, 2, 0.04),
		ok(0.95, 2, 0.02),
	}
	if got := RankEligible(vs); len(got) != 4 || got[0] != 4 || got[1] != 3 || got[2] != 2 || got[3] != 1 {
		t.Errorf("ranked %v, want [4 3 2 1]", got)
	}
	if i, met := ChooseSetting(vs); i != 4 || !met {
		t.Errorf("chose %d (%v), want 4", i, met)
	}
	none := []RecommendVerdict{
		{NormalOK: false, OutagesOK: true, Misses: []BoundMiss{{Bound: BoundNormalMaxFallback, By: 0.01}}},
		{NormalOK: true, OutagesOK: false, Misses: []BoundMiss{{Bound: BoundWithin, By: 0.6}}},
		{NormalOK: true, OutagesOK: false, Misses: []BoundMiss{{Bound: BoundWithin, By: 0.3}}},
	}
	if i, met := ChooseSetting(none); i != 2 || met {
		t.Errorf("closest %d (%v), want 2", i, met)
	}
	for _, c := range []struct {
		a, b int
		want string
	}{{2, 1, RankQuality}, {3, 2, RankWait}, {4, 3, RankFallback}, {4, 4, RankOrder}} {
		if got := Ahead(vs[c.a], vs[c.b]); got != c.want {
			t.Errorf("%d ahead of %d by %s, want %s", c.a, c.b, got, c.want)
		}
	}
	if i, _ := ChooseSetting(nil); i != -1 {
		t.Errorf("no settings: %d", i)
	}
}
