package scoring

import (
	"fmt"
	"strings"
)

// A check's left side may be the difference of two number figures, `a - b`
// (spaces around the minus), so a check can relate two moments of a run:
// `alert.BreakerOpen.first_s - breaker_first_open_s < 60` holds when the
// team's alert arrived within a minute of the breaker opening. The
// difference is null, and the check does not hold, when either figure is.

// differenceSep separates the two figures of a difference.
const differenceSep = " - "

// parseDifference splits a check's left side into its figure and, for a
// difference, the figure subtracted from it; both must be number figures.
func (set figureSet) parseDifference(expr, left string) (figure, minus string, err error) {
	figure, minus, isDiff := strings.Cut(left, differenceSep)
	if !isDiff {
		return left, "", nil
	}
	figure, minus = strings.TrimSpace(figure), strings.TrimSpace(minus)
	for _, f := range []string{figure, minus} {
		kind, ok := set.kind(f)
		if !ok {
			return "", "", fmt.Errorf("%q: unknown figure %q (valid: %s)", expr, f, strings.Join(set.names(), ", "))
		}
		if kind != figNumber {
			return "", "", fmt.Errorf("%q: %s is a %s, and only numbers subtract", expr, f, kind)
		}
	}
	return figure, minus, nil
}

// value is the check's left side measured on figs: its figure, or the
// difference of its two figures (nil when either is not a number).
func (e Expr) value(figs map[string]any) any {
	v := figs[e.Figure]
	if e.Minus == "" {
		return v
	}
	a, okA := v.(float64)
	b, okB := figs[e.Minus].(float64)
	if !okA || !okB {
		return nil
	}
	return round(a-b, 9)
}

// left is the check's left side as written in canonical form.
func (e Expr) left() string {
	if e.Minus == "" {
		return e.Figure
	}
	return e.Figure + differenceSep + e.Minus
}
