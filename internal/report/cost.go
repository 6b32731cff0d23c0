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
//
// The cost columns appear only when some run's cost is known
// (scoring.CostSummary.Known): a report of runs whose models have no price
// shows their tokens, not a column of zero costs.
func (r *Report) costTable() table {
	t := table{Head: []string{"Run", "Input tokens", "Output tokens", "Tokens by rung (in / out)", "Estimated (in / out, attempts)"}}
	priced := false
	for _, run := range r.Runs {
		priced = priced || run.Summary.Cost.Known()
	}
	if priced {
		t.Head = append(t.Head, "Cost", "Cost by rung", "Unpriced models")
	}
	for i, run := range r.Runs {
		tk, c := run.Summary.Tokens, run.Summary.Cost
		if tk.Attempts == 0 {
			continue
		}
		row := []string{runTag(i), fmt.Sprint(tk.Input), fmt.Sprint(tk.Output), plain.TokensByRung(tk),
			fmt.Sprintf("%d / %d, %d", tk.EstimatedInput, tk.EstimatedOutput, tk.EstimatedAttempts)}
		if priced {
			row = append(row, plain.Cost(c), plain.CostByRung(c), orDash(strings.Join(c.Unpriced, ", ")))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
