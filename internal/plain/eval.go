package plain

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/drill-dev/drill/internal/eval"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// Eval writes drill eval's result: with asJSON one object per model
// (eval.Report) on w and a line per invalid answer on log; otherwise the
// quality table (EvalTable). misses lists every email answered wrong.
func Eval(w, log io.Writer, ev eval.Evaluation, asJSON, misses bool) error {
	if !asJSON {
		return EvalTable(w, ev, misses)
	}
	res := make([]eval.Report, len(ev.Outcomes))
	for i, o := range ev.Outcomes {
		for _, r := range o.Failed {
			fmt.Fprintf(log, "drill eval: %s: email %d counted wrong on every field: %s\n", o.Result.Model, r.Email.ID, eval.OneLine(r.Err))
		}
		res[i] = o.Report(misses)
	}
	return JSON(w, res)
}

// EvalTable writes the quality table: per model all four fields right
// with a Wilson 95 % interval and each field's accuracy; the misses by
// field and (for a model that can say) by reading rule; the invalid
// answers; and with misses every email answered wrong.
func EvalTable(w io.Writer, ev eval.Evaluation, misses bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Answered by\tAll 4 right\t%s\n", strings.Join(scoring.FieldNames[:], "\t"))
	for _, o := range ev.Outcomes {
		r := o.Result
		row := []string{r.Model, fmt.Sprintf("%s (%.0f-%s)", format.Percent(r.All4Right), 100*r.All4RightCI95[0], format.Percent(r.All4RightCI95[1]))}
		for _, f := range scoring.FieldNames {
			row = append(row, format.Percent(r.Fields[f]))
		}
		if r.Emails == 0 { // every email came without a truth
			row = []string{r.Model, "unscored", "unscored", "unscored", "unscored", "unscored"}
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "Misses by field\t%s\tinvalid\n", strings.Join(scoring.FieldNames[:], "\t"))
	for _, o := range ev.Outcomes {
		r := o.Result
		row := []string{r.Model}
		for _, f := range scoring.FieldNames {
			row = append(row, fmt.Sprint(r.MissesByField[f]))
		}
		row = append(row, fmt.Sprint(r.Invalid))
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := evalRuleTable(w, ev.Outcomes); err != nil {
		return err
	}
	n := ev.Emails
	fmt.Fprintf(w, "\n%d emails, no outage, answered by %s; all 4 right with a Wilson 95%% interval.\n", n, ev.Source)
	if len(ev.Outcomes) > 0 && ev.Outcomes[0].Unscored > 0 {
		fmt.Fprintf(w, "%d of them came without a truth: answered, unscored (the figures cover the other %d).\n", ev.Outcomes[0].Unscored, n-ev.Outcomes[0].Unscored)
	}
	for _, o := range ev.Outcomes {
		if len(o.Failed) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nInvalid answers from %s (counted wrong on every field):\n", o.Result.Model)
		for _, r := range o.Failed {
			fmt.Fprintf(w, "  email %3d: %s\n", r.Email.ID, eval.OneLine(r.Err))
		}
	}
	if !misses {
		return nil
	}
	for _, o := range ev.Outcomes {
		fmt.Fprintf(w, "\nMisses of %s:\n", o.Result.Model)
		for _, m := range o.Misses {
			if m.Invalid {
				fmt.Fprintf(w, "  email %3d: invalid answer\n", m.Email)
				continue
			}
			var parts []string
			for _, f := range m.Wrong {
				part := fmt.Sprintf("%s %q, right %q", f, m.Got.Field(f), m.Truth.Field(f))
				if rule, ok := m.Because[f]; ok {
					part += " (" + rule + ")"
				}
				parts = append(parts, part)
			}
			fmt.Fprintf(w, "  email %3d: %s\n", m.Email, strings.Join(parts, "; "))
		}
	}
	return nil
}

// evalRuleTable writes, for each model that can say why it answered as it
// did (the built-in fake model), its wrong fields by the reading rule that
// caused each: why the backup is worse than the primary.
func evalRuleTable(w io.Writer, outcomes []eval.Outcome) error {
	explained := false
	for _, o := range outcomes {
		explained = explained || o.MissesByRule != nil
	}
	if !explained {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "Misses by rule\treading behaviour behind each wrong field\twrong fields")
	for _, o := range outcomes {
		if o.MissesByRule == nil {
			continue
		}
		rules := o.RulesByCount()
		if len(rules) == 0 {
			fmt.Fprintf(tw, "%s\tnone\t0\n", o.Result.Model)
		}
		for i, rc := range rules {
			name := o.Result.Model
			if i > 0 {
				name = ""
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\n", name, rc.Rule, rc.Count)
		}
	}
	return tw.Flush()
}
