package report

import (
	"fmt"
	"strings"

	"github.com/drill-dev/drill/scoring"
)

// hypotheses are the hypotheses the report judges: those given to drill
// report (--expect), then those any run's journal recorded, each once.
// recordedBy[k] is nil for a given hypothesis (judged on every run), else
// the runs whose journals recorded it (a run is not judged on a check it
// never had).
func (r *Report) hypotheses() (hyps []scoring.Expr, recordedBy []map[int]bool) {
	index := map[string]int{}
	for _, h := range r.Hypotheses {
		if _, seen := index[h.String()]; !seen {
			index[h.String()] = len(hyps)
			hyps, recordedBy = append(hyps, h), append(recordedBy, nil)
		}
	}
	for i, run := range r.Runs {
		if run.Meta.Summary == nil {
			continue
		}
		for _, v := range run.Meta.Summary.Hypotheses {
			e, err := scoring.ParseExpr(v.Expr)
			if err != nil {
				continue
			}
			k, seen := index[e.String()]
			if !seen {
				k = len(hyps)
				index[e.String()] = k
				hyps, recordedBy = append(hyps, e), append(recordedBy, map[int]bool{})
			}
			if recordedBy[k] != nil {
				recordedBy[k][i] = true
			}
		}
	}
	return hyps, recordedBy
}

// hypothesesTable judges the hypotheses with the same function that judged
// them at the end of the run: PASS or FAIL with the measured value, on the
// runs each is judged on (hypotheses; "—" on the others). No rows when
// there is no hypothesis.
func (r *Report) hypothesesTable() table {
	hyps, recordedBy := r.hypotheses()
	t := table{Head: []string{"Hypothesis"}}
	for i, run := range r.Runs {
		t.Head = append(t.Head, runTag(i)+" "+run.Label())
	}
	verdicts := r.judge(hyps)
	for k, h := range hyps {
		row := []string{h.String()}
		for i := range r.Runs {
			if recordedBy[k] != nil && !recordedBy[k][i] {
				row = append(row, "—")
				continue
			}
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

// judge judges hyps on every run with the function that judged them at the
// end of the run: verdicts[i][k] is hypothesis k on run i.
func (r *Report) judge(hyps []scoring.Expr) [][]scoring.Verdict {
	verdicts := make([][]scoring.Verdict, len(r.Runs))
	for i, run := range r.Runs {
		vs, err := scoring.JudgeSummary(run.Summary, hyps)
		if err != nil {
			vs = scoring.Judge(map[string]any{}, hyps) // no figure: every check fails, as on a null figure
		}
		verdicts[i] = vs
	}
	return verdicts
}

// ExpectFailed is what drill report's exit code comes from, as drill run's
// and drill replay's come from their hypotheses: nil when every hypothesis
// given to the report (Hypotheses, --expect) passes on every run, otherwise
// an error (exit 1) naming each FAIL cell with its measured value.
// Hypotheses only recorded in the journals are shown, not judged here: they
// decided their own run's exit code when it ended.
func (r *Report) ExpectFailed() error {
	var lines []string
	cells := 0
	for i, vs := range r.judge(r.Hypotheses) {
		for _, v := range vs {
			cells++
			if !v.Pass {
				lines = append(lines, fmt.Sprintf("  %s %s: %s (measured %s)", runTag(i), r.Runs[i].Label(), v.Expr, scoring.FormatValue(v.Value)))
			}
		}
	}
	if len(lines) == 0 {
		return nil
	}
	return fmt.Errorf("%d of %d hypothesis verdicts failed:\n%s", len(lines), cells, strings.Join(lines, "\n"))
}
