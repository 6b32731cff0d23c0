package scoring

import (
	"cmp"
	"context"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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
// outage, the share of emails answered with all four fields right, the
// calls made to the broken model during the outage, and the emails a
// worker pool rejected. all4_right is over the emails answered, so a
// setting whose starved pool turns half the emails away can score well on
// it; rejected, an objective of its own, keeps such a setting from
// dominating one that answered everyone (it is 0 for every setting without
// a pool, where it changes nothing).
var TradeOffObjectives = ObjectivesOf("p95_wait_outage_s", "all4_right", "calls_to_broken_outage", "rejected")

// FrontSignificance is the p-value below which McNemar's exact test on
// the same emails calls an all-4-right gap real rather than luck.
const FrontSignificance = 0.05

// FrontRow is one setting as the front rule reads it: its figures over
// its repeats and, where they are at hand, one run's per-email answers.
type FrontRow struct {
	Figures map[string]Stat
	// All4ByEmail maps each email one run of the setting answered to
	// whether all four fields were right, for McNemar's test on the same
	// emails (same seed and outage); nil (or empty) where per-email answers
	// are not at hand, and the rule then reads the summaries alone, as the
	// table does.
	All4ByEmail map[int]bool
}

// Dominated is THE front rule, read by drill sweep's table, the sweep
// dashboard and the report's trade-off chart: it marks each row another
// row clearly dominates, clearly better on at least one objective and
// clearly worse on none. Clearly better is ClearlyBetter: outside the
// repeats' spread (every repeat of one beats every repeat of the other),
// so a gap of medians the repeats' spread covers neither puts a setting on
// the front nor takes it off. On all-4-right, when both rows carry
// per-email answers, the gap must also be significant by McNemar's exact
// test on the emails both answered (p < FrontSignificance), and with one
// repeat that test alone decides. Where per-email answers are not at hand
// (drill sweep's table, which has only each run's summary), all-4-right is
// judged by the spread alone, as every other objective is; with one repeat
// the spread is then zero and any gap counts. Ties keep both on the front;
// a figure a row did not measure is its worst.
func Dominated(rows []FrontRow, objs []Objective) []bool {
	out, _ := DominatedContext(context.Background(), rows, objs) // a context never done: no error
	return out
}

// DominatedContext is Dominated, stopping with ctx's error as soon as ctx
// is done: at 10,000 settings the rule compares 10⁸ pairs. It reads each
// row's figures once into dense form and spreads the rows over the CPUs;
// the verdicts are Dominated's, pair by pair.
func DominatedContext(ctx context.Context, rows []FrontRow, objs []Objective) ([]bool, error) {
	return newFrontTable(rows, objs).dominated(ctx)
}

// ClearlyBetter reports whether figure a is better than b (higher when
// higher is better, else lower) by more than the repeats' spread: every
// run of a beats every run of b. A figure not measured is never better;
// one measured beats one that was not.
func ClearlyBetter(a, b Stat, higher bool) bool {
	switch {
	case a.N == 0:
		return false
	case b.N == 0:
		return true
	case higher:
		return a.Min > b.Max
	}
	return a.Max < b.Min
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
	// All4ByEmail is one run's per-email all-4-right (Fold.All4ByAnswered)
	// for the front rule's McNemar test; nil where it is not at hand.
	All4ByEmail map[int]bool
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
// clearly dominates on TradeOffObjectives (Dominated, the front rule).
// Rows come in the settings' order.
func AggregateSweep(settings []SweepSetting) ([]SweepRow, error) {
	return AggregateSweepContext(context.Background(), settings)
}

// AggregateSweepContext is AggregateSweep, stopping with ctx's error as
// soon as ctx is done (drill sweep's Ctrl-C after its drills).
func AggregateSweepContext(ctx context.Context, settings []SweepSetting) ([]SweepRow, error) {
	rows := make([]SweepRow, len(settings))
	if err := aggregateSettings(ctx, settings, rows); err != nil {
		return nil, err
	}
	byScenario := map[string][]int{}
	var scenarios []string
	for i, st := range settings {
		if _, ok := byScenario[st.Scenario]; !ok {
			scenarios = append(scenarios, st.Scenario)
		}
		byScenario[st.Scenario] = append(byScenario[st.Scenario], i)
	}
	for _, sc := range scenarios {
		idx := byScenario[sc]
		front := make([]FrontRow, len(idx))
		for k, i := range idx {
			front[k] = FrontRow{Figures: rows[i].Figures, All4ByEmail: settings[i].All4ByEmail}
		}
		dominated, err := DominatedContext(ctx, front, TradeOffObjectives)
		if err != nil {
			return nil, err
		}
		for k, d := range dominated {
			rows[idx[k]].Dominated = d
		}
	}
	return rows, nil
}

// aggregateSettings sets each row's Figures from its setting's runs
// (SweepFigures, then Aggregate), the settings spread over the CPUs: each
// run's summary is read through its JSON, which at 10,000 settings takes
// seconds on one. It stops with ctx's error when ctx is done; of several
// settings that fail, it returns the first one's error.
func aggregateSettings(ctx context.Context, settings []SweepSetting, rows []SweepRow) error {
	errs := make([]error, len(settings))
	const block = 64
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), (len(settings)+block-1)/block) {
		wg.Go(func() {
			for ctx.Err() == nil {
				start := int(next.Add(block)) - block
				if start >= len(settings) {
					return
				}
				for i := start; i < min(start+block, len(settings)); i++ {
					var figs []map[string]float64
					for _, s := range settings[i].Summaries {
						if s.Outage == "" { // never ran (interrupted before its turn)
							continue
						}
						f, err := SweepFigures(s)
						if err != nil {
							errs[i] = err
							break
						}
						figs = append(figs, f)
					}
					rows[i].Figures = Aggregate(figs)
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// All4ByAnswered maps each email the run answered to whether all four
// fields were right: the outcomes the front rule's McNemar test pairs.
func (f *Fold) All4ByAnswered() map[int]bool {
	out := make(map[int]bool, len(f.order))
	for _, id := range f.order {
		if r := f.emails[id]; r != nil && r.Answered {
			out[id] = r.All4
		}
	}
	return out
}
