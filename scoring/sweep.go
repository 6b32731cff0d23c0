package scoring

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Stat is one figure of one setting over its repeated runs: the median and
// the spread (smallest and largest). N is how many runs measured the
// figure (a figure can be null in a run, e.g. a p95 wait with no email
// sent during the outage).
type Stat struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	N      int     `json:"n"`
}

// Spread is Max − Min.
func (s Stat) Spread() float64 { return s.Max - s.Min }

// StatOf is the median (Quantile's, the mean of the middle two for an
// even count) and spread of samples; the zero Stat for none.
func StatOf(samples []float64) Stat {
	if len(samples) == 0 {
		return Stat{}
	}
	x := slices.Sorted(slices.Values(samples))
	n := len(x)
	return Stat{Median: Quantile(x, 0.5), Min: x[0], Max: x[n-1], N: n}
}

// Aggregate summarizes each figure over a setting's runs: every figure
// measured (present) in at least one run gets a Stat over the runs that
// measured it.
func Aggregate(runs []map[string]float64) map[string]Stat {
	samples := map[string][]float64{}
	for _, r := range runs {
		for name, v := range r {
			if !math.IsNaN(v) {
				samples[name] = append(samples[name], v)
			}
		}
	}
	out := make(map[string]Stat, len(samples))
	for name, xs := range samples {
		out[name] = StatOf(xs)
	}
	return out
}

// Objective is a figure and which way is better.
type Objective struct {
	Figure string
	Higher bool // higher is better; else lower is
}

// TradeOffObjectives are the figures a sweep setting is judged on: the p95 wait during the
// outage, the share of emails answered with all four fields right, and the
// calls made to the broken model during the outage.
var TradeOffObjectives = []Objective{
	{Figure: "p95_wait_outage_s"},
	{Figure: "all4_right", Higher: true},
	{Figure: "calls_to_broken_outage"},
}

// score is a row's value on an objective, oriented so that larger is
// better; a figure not measured is the worst possible.
func score(stats map[string]Stat, o Objective) float64 {
	s, ok := stats[o.Figure]
	if !ok || s.N == 0 {
		return math.Inf(-1)
	}
	if o.Higher {
		return s.Median
	}
	return -s.Median
}

// Dominated marks each row another row beats: at least as good on every
// objective (by median) and strictly better on one. A figure a row did not
// measure counts as its worst. Rows with equal figures do not dominate
// each other, so the front keeps ties.
func Dominated(rows []map[string]Stat, objs []Objective) []bool {
	pts := make([][]float64, len(rows))
	for i, r := range rows {
		pts[i] = make([]float64, len(objs))
		for k, o := range objs {
			pts[i][k] = score(r, o)
		}
	}
	out := make([]bool, len(rows))
	for i := range pts {
		for j := range pts {
			if i != j && dominates(pts[j], pts[i]) {
				out[i] = true
				break
			}
		}
	}
	return out
}

// dominates reports whether a is at least as good as b everywhere and
// better somewhere (both oriented larger-is-better).
func dominates(a, b []float64) bool {
	better := false
	for k := range a {
		if a[k] < b[k] {
			return false
		}
		if a[k] > b[k] {
			better = true
		}
	}
	return better
}

// higherBetter are figures (or prefixes, ending in ".") where more is
// better; lowerBetter the ones where less is. Others have no direction.
var (
	higherBetter = []string{"all4_right", "fields_right.", "served.primary", "served.backup", "primary_share",
		"backup_share", "emails_answered", "answered", "emails_sent"}
	lowerBetter = []string{"p95_wait_outage_s", "median_wait_outage_s", "followed.wait_s", "calls_to_broken_outage",
		"breaker_first_open_s", "primary_back_s", "served.canned", "served.error", "canned_share", "error_share",
		"never_answered", "not_sent", "breaker_opens", "wall_s"}
)

// HigherIsBetter says which way figure is better: higher (true) or lower
// (false), and whether drill knows (ok); for a figure with no direction,
// ok is false.
func HigherIsBetter(figure string) (higher, ok bool) {
	match := func(list []string) bool {
		for _, m := range list {
			if figure == m || (strings.HasSuffix(m, ".") && strings.HasPrefix(figure, m)) ||
				strings.HasPrefix(figure, "all4_right") && m == "all4_right" {
				return true
			}
		}
		return false
	}
	switch {
	case match(higherBetter):
		return true, true
	case match(lowerBetter):
		return false, true
	}
	return false, false
}

// OrderBy returns the indexes of rows sorted by figure's median, descending
// when desc, ties and rows without the figure keeping their order (rows
// without it last).
func OrderBy(rows []map[string]Stat, figure string, desc bool) []int {
	idx := make([]int, len(rows))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		sa, oka := rows[a][figure]
		sb, okb := rows[b][figure]
		oka, okb = oka && sa.N > 0, okb && sb.N > 0
		switch {
		case !oka && !okb:
			return 0
		case !oka:
			return 1
		case !okb:
			return -1
		}
		if desc {
			return cmp.Compare(sb.Median, sa.Median)
		}
		return cmp.Compare(sa.Median, sb.Median)
	})
	return idx
}

// SweepFigures are the figures a sweep aggregates from one run's summary:
// every number figure (FiguresOf; null figures left out), the served
// counts the summary omits at 0 as 0, except all4_right and its interval
// while the run has answered nothing. The
// sweep table, the sweep dashboard and the report's trade-off chart all
// read these.
func SweepFigures(s Summary) (map[string]float64, error) {
	figs, err := FiguresOf(s)
	if err != nil {
		return nil, err
	}
	out := make(map[string]float64, len(figs))
	for name, v := range figs {
		if f, ok := v.(float64); ok {
			out[name] = f
		}
	}
	// The summary leaves these counts out at 0; over repeats a run
	// without any must count as 0, or the median is of the others alone.
	for _, name := range []string{"served.rules", "served.handed_over", "served.rejected"} {
		if _, ok := out[name]; !ok {
			out[name] = 0
		}
	}
	if s.EmailsAnswered == 0 {
		for name := range out {
			if strings.HasPrefix(name, "all4_right") {
				delete(out, name)
			}
		}
	}
	return out, nil
}

// SweepScenario is the scenario a sweep setting competes in: its outage
// kind and any fault parameters it sets ("busy status=503"). Settings are
// compared only within a scenario: the outage is given, the rest are
// choices.
func SweepScenario(outage string, faultParams []string) string {
	return strings.Join(append([]string{outage}, faultParams...), " ")
}

// SweepSetting is one setting of a sweep: its scenario and the summaries
// of its runs so far (a zero Summary, with no outage, for a run that never
// ran).
type SweepSetting struct {
	Scenario  string
	Summaries []Summary
}

// SweepRow is one setting aggregated: every figure's median and spread over
// the runs that measured it, and whether another setting of its scenario
// beats it on the trade-off figures.
type SweepRow struct {
	Figures   map[string]Stat
	Dominated bool
}

// AggregateSweep aggregates each setting's runs (SweepFigures, then
// Aggregate) and marks, within each scenario, the settings another one
// dominates on TradeOffObjectives. Rows come in the settings' order.
func AggregateSweep(settings []SweepSetting) ([]SweepRow, error) {
	rows := make([]SweepRow, len(settings))
	byScenario := map[string][]int{}
	var scenarios []string
	for i, st := range settings {
		var figs []map[string]float64
		for _, s := range st.Summaries {
			if s.Outage == "" { // never ran (interrupted before its turn)
				continue
			}
			f, err := SweepFigures(s)
			if err != nil {
				return nil, err
			}
			figs = append(figs, f)
		}
		rows[i].Figures = Aggregate(figs)
		if _, ok := byScenario[st.Scenario]; !ok {
			scenarios = append(scenarios, st.Scenario)
		}
		byScenario[st.Scenario] = append(byScenario[st.Scenario], i)
	}
	for _, sc := range scenarios {
		idx := byScenario[sc]
		stats := make([]map[string]Stat, len(idx))
		for k, i := range idx {
			stats[k] = rows[i].Figures
		}
		for k, d := range Dominated(stats, TradeOffObjectives) {
			rows[idx[k]].Dominated = d
		}
	}
	return rows, nil
}
