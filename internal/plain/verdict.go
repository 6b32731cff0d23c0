package plain

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// Verdicts writes the hypotheses table: the check, PASS or FAIL, the
// measured value; nothing for no hypotheses.
func Verdicts(w io.Writer, vs []scoring.Verdict) error {
	if len(vs) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "hypothesis\tresult\tmeasured")
	for _, v := range vs {
		res := "PASS"
		if !v.Pass {
			res = "FAIL"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", v.Expr, res, scoring.FormatValue(v.Value))
	}
	fmt.Fprintln(tw)
	return tw.Flush()
}

// JudgedRuns writes each run's hypotheses table under its outage and
// policy, skipping runs without hypotheses.
func JudgedRuns(w io.Writer, runs []scoring.Judged) error {
	for _, r := range runs {
		if len(r.Hypotheses) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s / %s\n", format.Text(r.OutageLabel()), format.Text(r.Policy))
		if err := Verdicts(w, r.Hypotheses); err != nil {
			return err
		}
	}
	return nil
}

// ChatVerdicts writes each chat drill's hypotheses table under its
// incident, policy and seed, skipping drills without hypotheses.
func ChatVerdicts(w io.Writer, sums []scoring.ChatSummary) error {
	for _, s := range sums {
		if len(s.Hypotheses) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s / %s / seed %d\n", format.Text(s.Incident), format.Text(s.Policy), s.Seed)
		if err := Verdicts(w, s.Hypotheses); err != nil {
			return err
		}
	}
	return nil
}

// FailedHypotheses says which of a run's hypotheses failed, each with its
// measured value: the message a failed drill exits 1 with.
func FailedHypotheses(sum scoring.Summary, v scoring.RunVerdict) string {
	var lines []string
	for _, f := range v.Failed {
		lines = append(lines, fmt.Sprintf("  %s (measured %s)", f.Expr, scoring.FormatValue(f.Value)))
	}
	for _, l := range NotTheRunsAlerts(sum) {
		lines = append(lines, "  "+l)
	}
	return fmt.Sprintf("%s/%s: %d of %d hypotheses failed:\n%s", format.Text(sum.OutageLabel()), format.Text(sum.Policy), len(v.Failed), len(v.Verdicts), strings.Join(lines, "\n"))
}

// NoModelAnswered says a run served every email by the canned reply or a
// failure.
func NoModelAnswered(sum scoring.Summary) string {
	return fmt.Sprintf("%s/%s: no model answered: every email was served by the canned reply or failed (is the endpoint right?)", format.Text(sum.OutageLabel()), format.Text(sum.Policy))
}
