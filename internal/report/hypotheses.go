package report

import "github.com/drill-dev/drill/scoring"

// hypotheses are the hypotheses the report judges: those given to drill
// report (--expect), then those any run's journal recorded, each once.
func (r *Report) hypotheses() []scoring.Expr {
	var out []scoring.Expr
	seen := map[string]bool{}
	add := func(e scoring.Expr) {
		if !seen[e.String()] {
			seen[e.String()] = true
			out = append(out, e)
		}
	}
	for _, h := range r.Hypotheses {
		add(h)
	}
	for _, run := range r.Runs {
		if run.Meta.Summary == nil {
			continue
		}
		for _, v := range run.Meta.Summary.Hypotheses {
			if e, err := scoring.ParseExpr(v.Expr); err == nil {
				add(e)
			}
		}
	}
	return out
}

// hypothesesTable judges every hypothesis on every run, with the same
// function that judged it at the end of the run: PASS or FAIL with the
// measured value. No rows when there is no hypothesis.
func (r *Report) hypothesesTable() table {
	hyps := r.hypotheses()
	t := table{Head: []string{"Hypothesis"}}
	for i, run := range r.Runs {
		t.Head = append(t.Head, runTag(i)+" "+run.Label())
	}
	verdicts := make([][]scoring.Verdict, len(r.Runs))
	for i, run := range r.Runs {
		figs, err := scoring.FiguresOf(run.Summary)
		if err != nil {
			figs = map[string]any{}
		}
		verdicts[i] = scoring.Judge(figs, hyps)
	}
	for k, h := range hyps {
		row := []string{h.String()}
		for i := range r.Runs {
			v := verdicts[i][k]
			word := "FAIL"
			if v.Pass {
				word = "PASS"
			}
			row = append(row, word+" ("+scoring.FormatValue(v.Value)+")")
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
