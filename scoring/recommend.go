package scoring

import (
	"math"
	"slices"
)

// The bounds drill recommend judges a setting by, named as its flags and
// its JSON name them (BoundMiss.Bound).
const (
	// BoundWithin is the class's p95 wait during each outage.
	BoundWithin = "within"
	// BoundMinAll4Right is the class's share of all-4-right answers during
	// each outage.
	BoundMinAll4Right = "min_all4_right"
	// BoundNormalMaxFallback is the share of the class's emails the
	// primary leaves to others on a day with no outage.
	BoundNormalMaxFallback = "normal_max_fallback"
	// BoundNormalMinAll4Right is the class's share of all-4-right answers
	// on a day with no outage.
	BoundNormalMinAll4Right = "normal_min_all4_right"
)

// DefaultNormalMaxFallback is the default BoundNormalMaxFallback: on a
// day with no outage at most 5 % of a class's emails go to anyone but the
// primary.
const DefaultNormalMaxFallback = 0.05

// RecommendBounds are what a class of emails asks of a setting: during
// each outage held against, and on a day with no outage (the normal day).
type RecommendBounds struct {
	// WithinS bounds the class's p95 wait during each outage, at its
	// largest over the repeats, in seconds; 0 for no bound.
	WithinS float64
	// MinAll4Right is the floor on the class's median share of all-4-right
	// answers during each outage; 0 for none.
	MinAll4Right float64
	// NormalMaxFallback bounds, on the normal day and in every repeat, the
	// share of the class's emails the primary did not answer: served by
	// the backup, the rules rung or the canned reply, handed to a person,
	// failed or rejected. 1 lets any share pass.
	NormalMaxFallback float64
	// NormalQuality is the quality bound on the normal day.
	NormalQuality NormalQuality
}

// NormalQuality is the quality bound on the normal day: in every repeat,
// the class's share of all-4-right answers must be at least Floor and,
// with PrimaryAlone, not below the 95 % Wilson interval of the share the
// primary alone gives the same emails on the same day (the same seed):
// diverting emails off the primary must not make the class's answers
// worse than the primary's own noise. The zero value is no bound.
type NormalQuality struct {
	PrimaryAlone bool    `json:"primary_alone"`
	Floor        float64 `json:"floor"`
}

// OutageStats are one class's figures for one setting in one outage, over
// the repeats.
type OutageStats struct {
	Outage string
	// P95WaitS is the class's p95 wait during the outage; nil when none of
	// its emails was sent in it.
	P95WaitS *Stat
	// All4Right is the class's share of all-4-right answers; nil when none
	// was scored.
	All4Right *Stat
}

// NormalDayRun is one class on one repeat of the normal day: the
// setting's run and the primary alone's run of the same emails with the
// same seed. A class with no email in the run has the zero ClassSummary.
type NormalDayRun struct {
	Setting      ClassSummary
	PrimaryAlone ClassSummary
}

// NormalDayFigures are one class's figures for one setting on the normal
// day, over the repeats: what the normal-day bounds read.
type NormalDayFigures struct {
	// Emails counts the class's emails (the first repeat's).
	Emails int `json:"emails"`
	// Fallback is the share of the class's emails the primary did not
	// answer (median, smallest, largest over the repeats).
	Fallback Stat `json:"fallback"`
	// All4Right is the class's share of all-4-right answers; null when
	// none was scored.
	All4Right *Stat `json:"all4_right"`
	// PrimaryAloneAll4Right is the class's share when the primary alone
	// answers the same days; null when none was scored.
	PrimaryAloneAll4Right *Stat `json:"primary_alone_all4_right"`
	// PrimaryAloneCI95 is the primary alone's 95 % Wilson interval in the
	// repeat closest to the bound (the smallest margin over its lower
	// end); null when none was scored.
	PrimaryAloneCI95 *[2]float64 `json:"primary_alone_all4_right_ci95"`
}

// BoundMiss is one bound a setting misses for a class.
type BoundMiss struct {
	// Bound is one of the Bound* names.
	Bound string `json:"bound"`
	// Outage is the outage it was missed in; "none" for the normal day.
	Outage string `json:"outage"`
	// Got is the figure (seconds or a share), Want the bound it misses.
	Got  float64 `json:"got"`
	Want float64 `json:"want"`
	// By is how far it misses, relative to the bound (0.2: 20 % over a
	// wait bound or short of a floor).
	By float64 `json:"by"`
}

// RecommendVerdict is how one setting fares against one class's bounds.
type RecommendVerdict struct {
	// NormalOK is true when the normal-day bounds are met (or the class
	// has no email on that day); OutagesOK when every outage's are.
	NormalOK  bool
	OutagesOK bool
	// Misses are the bounds missed: the normal day's, then the outages'
	// in their order.
	Misses []BoundMiss
	// WorstP95S is the largest p95 wait over the outages and repeats (-1
	// when none was measured: no email of the class was sent in an
	// outage); WorstAll4 the smallest median all-4-right over the outages
	// (-1 when none was measured): the figures the eligible settings are
	// ranked by.
	WorstP95S float64
	WorstAll4 float64
	// Normal are the normal day's figures.
	Normal NormalDayFigures
}

// Eligible reports whether the setting meets every bound of the class.
func (v RecommendVerdict) Eligible() bool { return v.NormalOK && v.OutagesOK }

// Worst is the largest miss (the zero BoundMiss when none).
func (v RecommendVerdict) Worst() BoundMiss {
	var w BoundMiss
	for _, m := range v.Misses {
		if m.By > w.By || w.Bound == "" {
			w = m
		}
	}
	return w
}

// JudgeRecommend is THE rule drill recommend keeps or rejects a setting
// for a class by: the normal day's bounds over every repeat (normal, one
// per repeat), then, during each outage, the p95 wait at its largest over
// the repeats within WithinS and the median all-4-right share at least
// MinAll4Right.
func JudgeRecommend(b RecommendBounds, outages []OutageStats, normal []NormalDayRun) RecommendVerdict {
	v := RecommendVerdict{NormalOK: true, OutagesOK: true, WorstP95S: -1, WorstAll4: math.Inf(1)}
	v.Normal, v.Misses = judgeNormalDay(b, normal)
	v.NormalOK = len(v.Misses) == 0
	for _, o := range outages {
		if p := o.P95WaitS; p != nil {
			v.WorstP95S = max(v.WorstP95S, p.Max)
			if b.WithinS > 0 && p.Max > b.WithinS {
				v.Misses = append(v.Misses, BoundMiss{Bound: BoundWithin, Outage: o.Outage, Got: p.Max, Want: b.WithinS, By: p.Max/b.WithinS - 1})
				v.OutagesOK = false
			}
		}
		if a := o.All4Right; a != nil {
			v.WorstAll4 = min(v.WorstAll4, a.Median)
			if b.MinAll4Right > 0 && a.Median < b.MinAll4Right {
				v.Misses = append(v.Misses, BoundMiss{Bound: BoundMinAll4Right, Outage: o.Outage, Got: a.Median, Want: b.MinAll4Right,
					By: (b.MinAll4Right - a.Median) / b.MinAll4Right})
				v.OutagesOK = false
			}
		}
	}
	if math.IsInf(v.WorstAll4, 1) {
		v.WorstAll4 = -1
	}
	return v
}

// judgeNormalDay reads the normal day's repeats: the class's figures and
// the bounds missed (the fallback bound's worst repeat, then the quality
// bound's).
func judgeNormalDay(b RecommendBounds, runs []NormalDayRun) (NormalDayFigures, []BoundMiss) {
	var f NormalDayFigures
	var fallback, all4, alone []float64
	var fallbackMiss, qualityMiss *BoundMiss
	margin := math.Inf(1)
	for i, r := range runs {
		s := r.Setting
		if i == 0 {
			f.Emails = s.Emails
		}
		if s.Emails == 0 {
			continue
		}
		share := float64(s.Emails-s.Served.Primary) / float64(s.Emails)
		fallback = append(fallback, share)
		if share > b.NormalMaxFallback && (fallbackMiss == nil || share > fallbackMiss.Got) {
			fallbackMiss = &BoundMiss{Bound: BoundNormalMaxFallback, Outage: "none", Got: share, Want: b.NormalMaxFallback,
				By: relativeOver(share, b.NormalMaxFallback)}
		}
		if r.PrimaryAlone.All4Right != nil {
			alone = append(alone, *r.PrimaryAlone.All4Right)
		}
		if s.All4Right == nil {
			continue // nothing scored: the fallback bound speaks for the class
		}
		got := *s.All4Right
		all4 = append(all4, got)
		want := b.NormalQuality.Floor
		if ci := r.PrimaryAlone.All4RightCI95; b.NormalQuality.PrimaryAlone && ci != nil {
			want = max(want, ci[0])
			if got-ci[0] < margin {
				margin, f.PrimaryAloneCI95 = got-ci[0], ci
			}
		}
		if want > 0 && got < want && (qualityMiss == nil || (want-got)/want > qualityMiss.By) {
			qualityMiss = &BoundMiss{Bound: BoundNormalMinAll4Right, Outage: "none", Got: got, Want: want, By: (want - got) / want}
		}
	}
	f.Fallback = StatOf(fallback)
	if len(all4) > 0 {
		st := StatOf(all4)
		f.All4Right = &st
	}
	if len(alone) > 0 {
		st := StatOf(alone)
		f.PrimaryAloneAll4Right = &st
	}
	var misses []BoundMiss
	for _, m := range []*BoundMiss{fallbackMiss, qualityMiss} {
		if m != nil {
			misses = append(misses, *m)
		}
	}
	return f, misses
}

// relativeOver is how far got is over the bound want, relative to it;
// over a bound of 0, got itself.
func relativeOver(got, want float64) float64 {
	if want <= 0 {
		return got
	}
	return got/want - 1
}

// ChooseSetting is THE rule drill recommend picks a class's setting by,
// given every searched setting's verdict: the first of RankEligible when
// any setting is eligible; else the closest one, eligible false: a setting
// that keeps the normal day before one that does not, then the smallest
// largest miss, then the first searched. It returns -1 for no verdicts.
func ChooseSetting(vs []RecommendVerdict) (chosen int, eligible bool) {
	if ranked := RankEligible(vs); len(ranked) > 0 {
		return ranked[0], true
	}
	chosen = -1
	for i, v := range vs {
		if chosen < 0 || closer(v, vs[chosen]) {
			chosen = i
		}
	}
	return chosen, false
}

// RankEligible returns the indexes of the eligible verdicts (every bound
// met), best first: the best quality in its worst outage (the highest
// WorstAll4), then the shortest p95 wait in its worst outage, then the
// fewest emails left off the primary on the normal day, then the first
// searched.
func RankEligible(vs []RecommendVerdict) []int {
	var out []int
	for i, v := range vs {
		if v.Eligible() {
			out = append(out, i)
		}
	}
	slices.SortStableFunc(out, func(a, b int) int {
		switch {
		case better(vs[a], vs[b]):
			return -1
		case better(vs[b], vs[a]):
			return 1
		}
		return 0
	})
	return out
}

// The keys the rule ranks eligible settings by, in its order (Ahead):
// the quality in the worst outage, the p95 wait in the worst outage, the
// share left off the primary with no outage, and the order searched.
const (
	RankQuality  = "quality"
	RankWait     = "wait"
	RankFallback = "fallback"
	RankOrder    = "order"
)

// Ahead is the first of the rule's keys on which eligible a and b differ:
// the one that decides between them (RankOrder when they tie on every
// figure).
func Ahead(a, b RecommendVerdict) string {
	switch {
	case a.WorstAll4 != b.WorstAll4:
		return RankQuality
	case max(a.WorstP95S, 0) != max(b.WorstP95S, 0): // none measured: no wait
		return RankWait
	case a.Normal.Fallback.Max != b.Normal.Fallback.Max:
		return RankFallback
	}
	return RankOrder
}

// better reports whether eligible a ranks above eligible b on the key
// that decides between them (Ahead).
func better(a, b RecommendVerdict) bool {
	switch Ahead(a, b) {
	case RankQuality:
		return a.WorstAll4 > b.WorstAll4
	case RankWait:
		return max(a.WorstP95S, 0) < max(b.WorstP95S, 0)
	case RankFallback:
		return a.Normal.Fallback.Max < b.Normal.Fallback.Max
	}
	return false
}

// closer reports whether a misses the bounds by less than b: keeping the
// normal day first, then the smaller largest miss.
func closer(a, b RecommendVerdict) bool {
	if a.NormalOK != b.NormalOK {
		return a.NormalOK
	}
	return a.Worst().By < b.Worst().By
}
