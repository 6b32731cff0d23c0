package history

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// RegressionMark follows a value flagged as a regression in the table.
const RegressionMark = " !"

// WriteTable writes each group's trend: a row per headline figure, a
// column per run date, flagged values marked, then the regressions and the
// expectations in words.
func WriteTable(w io.Writer, groups []Group, judgements []Judgement) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for gi, g := range groups {
		if gi > 0 {
			fmt.Fprintln(tw)
		}
		fmt.Fprintf(tw, "%s (%s)\n", g.Key, format.Plural(len(g.Runs), "run"))
		flagged := map[[2]int]bool{} // run, headline index
		regs := g.Regressions()
		for _, r := range regs {
			flagged[[2]int{r.Run, headlineIndex(g.Headline(), r.Figure.Name)}] = true
		}
		fmt.Fprint(tw, "figure")
		for _, d := range Dates(g) {
			fmt.Fprintf(tw, "\t%s", d)
		}
		fmt.Fprintln(tw)
		for fi, f := range g.Headline() {
			fmt.Fprint(tw, f.Name)
			for ri, r := range g.Runs {
				mark := ""
				if flagged[[2]int{ri, fi}] {
					mark = RegressionMark
				}
				fmt.Fprintf(tw, "\t%s%s", Value(f, r.Figures[f.Name]), mark)
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return fmt.Errorf("writing the history: %w", err)
		}
		ds := Dates(g)
		for _, r := range regs {
			fmt.Fprintf(tw, "regression: %s %s %s, beyond the %s before (%s–%s)\n", ds[r.Run], r.Figure.Name,
				Value(r.Figure, r.Value), format.Plural(r.Earlier, "run"), Value(r.Figure, r.Low), Value(r.Figure, r.High))
		}
	}
	if len(judgements) > 0 {
		fmt.Fprintln(tw)
		fmt.Fprintln(tw, "expectation\tgroup\tresult\tmeasured\tbound")
		for _, j := range judgements {
			result, measured, bound := j.Cells()
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", j.Expectation, j.Group, result, measured, bound)
		}
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing the history: %w", err)
	}
	return nil
}

// Cells are a judgement as the history's tables show it: its result (PASS,
// FAIL or no history), the latest run's value and the bound.
func (j Judgement) Cells() (result, measured, bound string) {
	result = "FAIL"
	switch {
	case !j.Judged:
		result = "no history"
	case j.Pass:
		result = "PASS"
	}
	bound = format.Dash
	if j.Bound != nil {
		bound = scoring.FormatValue(round(*j.Bound))
	}
	return result, scoring.FormatValue(j.Value), bound
}

// Dates labels each run of a group by its date, finer where runs share a
// label: the minute when two runs share a day, the second when they share
// a minute, and a run number (#2, #3…) when they share even the second,
// so every column heading names one run.
func Dates(g Group) []string {
	out := make([]string, len(g.Runs))
	layouts := []string{"2006-01-02", "2006-01-02 15:04", "2006-01-02 15:04:05"}
	for i, r := range g.Runs {
		out[i] = r.Date.Format(layouts[0])
	}
	for _, layout := range layouts[1:] {
		dup := duplicated(out)
		for i, r := range g.Runs {
			if dup[out[i]] {
				out[i] = r.Date.Format(layout)
			}
		}
	}
	dup, nth := duplicated(out), map[string]int{}
	for i, d := range out {
		if dup[d] {
			nth[d]++
			out[i] = fmt.Sprintf("%s #%d", d, nth[d])
		}
	}
	return out
}

// duplicated is the set of labels that occur more than once.
func duplicated(labels []string) map[string]bool {
	n := map[string]int{}
	for _, l := range labels {
		n[l]++
	}
	dup := map[string]bool{}
	for l, c := range n {
		if c > 1 {
			dup[l] = true
		}
	}
	return dup
}

// Value formats a headline figure's value as the rest of drill shows it.
func Value(f Figure, v any) string {
	n, ok := Number(v)
	if !ok {
		return format.Dash
	}
	switch f.Unit {
	case scoring.UnitSeconds:
		return format.Secs(n)
	case scoring.UnitShare:
		return format.Percent(n)
	case scoring.UnitMoney:
		return format.Money(n)
	}
	return strconv.FormatFloat(n, 'f', -1, 64)
}

func headlineIndex(headline []Figure, name string) int {
	for i, f := range headline {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// round keeps a computed bound (previous * 1.2) free of float noise.
func round(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
	return v
}
