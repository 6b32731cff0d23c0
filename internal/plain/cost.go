package plain

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

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
		per = append(per, r+" "+format.Money(c.ByRung[r]))
	}
	return strings.Join(per, ", ")
}

// Cost is a run's cost with its limit: "0.022619 of max 0.050000", or
// "0.022619".
func Cost(c scoring.CostSummary) string {
	s := format.Money(c.Total)
	if c.MaxSpend > 0 {
		s += " of max " + format.Money(c.MaxSpend)
	}
	return s
}
