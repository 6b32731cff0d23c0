package format

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/drill-dev/drill/scoring"
)

// Money writes an amount in the price table's currency, to a millionth:
// one call of a small model costs a fraction of a cent.
func Money(v float64) string { return fmt.Sprintf("%.6f", v) }

// TokensByRung is every rung's input / output tokens: "primary 120 / 40,
// backup 30 / 10".
func TokensByRung(t scoring.TokenSummary) string {
	var per []string
	for _, r := range slices.Sorted(maps.Keys(t.InputByRung)) {
		per = append(per, fmt.Sprintf("%s %d / %d", r, t.InputByRung[r], t.OutputByRung[r]))
	}
	return strings.Join(per, ", ")
}

// CostByRung is every rung's cost: "primary 0.000120, backup 0.000010".
func CostByRung(c scoring.CostSummary) string {
	var per []string
	for _, r := range slices.Sorted(maps.Keys(c.ByRung)) {
		per = append(per, r+" "+Money(c.ByRung[r]))
	}
	return strings.Join(per, ", ")
}

// Cost is a run's cost with its limit: "0.022619 of max 0.050000", or
// "0.022619".
func Cost(c scoring.CostSummary) string {
	s := Money(c.Total)
	if c.MaxSpend > 0 {
		s += " of max " + Money(c.MaxSpend)
	}
	return s
}
