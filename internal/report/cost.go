package report

import (
	"fmt"
	"strings"

	"github.com/drill-dev/drill/internal/plain"
)

// costNote explains the tokens and cost table.
const costNote = "Tokens count every HTTP attempt, answers thrown away included: a hedge's loser, an invalid answer, " +
	"and attempts cut by a time limit or the run's end, which the provider may bill; those are estimated from the request's size " +
	"(four bytes a token) and shown as estimated. Cost is by the run's price table (--price, prices: in the drill file), " +
	"in its currency; a model without a price costs nothing here and is listed as unpriced."

// costTable is the tokens and cost of every run that used any: in total,
// per rung and the estimated part. It has no rows when no run did.
func (r *Report) costTable() table {
	t := table{Head: []string{"Run", "Input tokens", "Output tokens", "Tokens by rung (in / out)", "Estimated (in / out, attempts)",
		"Cost", "Cost by rung", "Unpriced models"}}
	for i, run := range r.Runs {
		tk, c := run.Summary.Tokens, run.Summary.Cost
		if tk.Attempts == 0 {
			continue
		}
		t.Rows = append(t.Rows, []string{runTag(i), fmt.Sprint(tk.Input), fmt.Sprint(tk.Output), plain.TokensByRung(tk),
			fmt.Sprintf("%d / %d, %d", tk.EstimatedInput, tk.EstimatedOutput, tk.EstimatedAttempts),
			plain.Cost(c), plain.CostByRung(c), orDash(strings.Join(c.Unpriced, ", "))})
	}
	return t
}
