package format

import (
	"fmt"
	"strings"

	"github.com/drill-dev/drill/scoring"
)

// CostRows adds the tokens and cost rows to drill run's summary table,
// when the run's calls reported or were estimated any tokens.
func CostRows(row func(k, v string), s scoring.Summary) {
	t, c := s.Tokens, s.Cost
	if t.Attempts == 0 {
		return
	}
	tokens := fmt.Sprintf("%d / %d (%s)", t.Input, t.Output, TokensByRung(t))
	if t.EstimatedAttempts > 0 {
		tokens += fmt.Sprintf("; %d / %d estimated, %d attempts cut before their answer", t.EstimatedInput, t.EstimatedOutput, t.EstimatedAttempts)
	}
	row("tokens (input / output)", tokens)
	cost := Cost(c) + " (" + CostByRung(c) + ")"
	if c.Estimated > 0 {
		cost += "; " + Money(c.Estimated) + " estimated"
	}
	if len(c.Unpriced) > 0 {
		cost += "; no price for " + strings.Join(c.Unpriced, ", ")
	}
	row("cost", cost)
}
