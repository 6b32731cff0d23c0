package report

import "github.com/drill-dev/drill/scoring"

// hypothesesTable is the PASS/FAIL table of every run's hypotheses, as its
// journal's summary line recorded them (judged at the end of the run):
// no rows when no run had any.
func (r *Report) hypothesesTable() table {
	t := table{Head: []string{"Run", "Hypothesis", "Result", "Measured"}}
	for i, run := range r.Runs {
		if run.Meta.Summary == nil {
			continue
		}
		for _, v := range run.Meta.Summary.Hypotheses {
			result := "PASS"
			if !v.Pass {
				result = "FAIL"
			}
			t.Rows = append(t.Rows, []string{runTag(i), v.Expr, result, scoring.FormatValue(v.Value)})
		}
	}
	return t
}
