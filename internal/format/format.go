// Package format is the one formatter for every unit drill shows: seconds
// in each of their written forms, spans, percentages and their intervals,
// p-values, counts, money and the "—" of a figure that does not exist. It
// knows no drill type and imports nothing of drill's, so every package, the
// engine's included, writes its figures through it and one figure reads
// the same everywhere. Texts built from drill's own types (the run's
// summary, tables, progress lines) are in internal/plain, on these units.
package format

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Dash stands for a figure that does not exist (never happened, no data).
const Dash = "—"

// Text returns s, its control characters removed (Clean: text that came
// from input may hold escape sequences), or Dash when it is empty.
func Text(s string) string {
	if s == "" {
		return Dash
	}
	return Clean(s)
}

// Seconds formats an optional number of seconds to a tenth: "1.2 s", or
// Dash for nil.
func Seconds(v *float64) string {
	if v == nil {
		return Dash
	}
	return Secs(*v)
}

// Secs formats seconds to a tenth: "1.2 s".
func Secs(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Dash
	}
	return fmt.Sprintf("%.1f s", noNegZero(v, 10))
}

// Dur formats a duration as seconds to a tenth: "1.2 s".
func Dur(d time.Duration) string { return Secs(d.Seconds()) }

// Percent formats a share (0..1) as a whole percentage: "85%".
func Percent(x float64) string {
	if math.IsNaN(x) {
		return Dash
	}
	return fmt.Sprintf("%.0f%%", noNegZero(100*x, 1))
}

// PercentCI formats a share with its 95 % interval: "85% (78–90%)".
func PercentCI(x float64, ci [2]float64) string {
	return fmt.Sprintf("%s (%.0f–%s)", Percent(x), 100*ci[0], Percent(ci[1]))
}

// PValue formats a p-value: "< 0.001", three decimals below 0.01, else two.
func PValue(p float64) string {
	switch {
	case math.IsNaN(p):
		return Dash
	case p < 0.001:
		return "< 0.001"
	case p < 0.01:
		return fmt.Sprintf("%.3f", p)
	default:
		return fmt.Sprintf("%.2f", p)
	}
}

// SignedSecs formats a difference in seconds with its sign: "+1.2 s".
func SignedSecs(v float64) string { return fmt.Sprintf("%+.1f s", noNegZero(v, 10)) }

// SignedPoints formats a difference of shares in percentage points: "+3.3 pp".
func SignedPoints(d float64) string { return fmt.Sprintf("%+.1f pp", noNegZero(100*d, 10)) }

// noNegZero rounds x to 1/scale and drops the sign of a zero, so a value
// too small to show prints as 0.0, not -0.0.
func noNegZero(x, scale float64) float64 {
	x = math.Round(x*scale) / scale
	if x == 0 {
		return 0
	}
	return x
}

// Span formats a period in seconds to a tenth: "5.3–10.3 s".
func Span(start, end float64) string {
	return fmt.Sprintf("%.1f–%s", noNegZero(start, 10), Secs(end))
}

// CountRange formats a range of counts, "6–29", or one number, "30", when
// both ends round to the same count.
func CountRange(lo, hi float64) string {
	l, h := math.Round(lo), math.Round(hi)
	if l == h {
		return fmt.Sprintf("%.0f", noNegZero(l, 1))
	}
	return fmt.Sprintf("%.0f–%.0f", noNegZero(l, 1), noNegZero(h, 1))
}

// DurSpan formats a period given as durations: "5.3–10.3 s".
func DurSpan(start, end time.Duration) string { return Span(start.Seconds(), end.Seconds()) }

// Money writes an amount in the price table's currency, to a millionth:
// one call of a small model costs a fraction of a cent.
func Money(v float64) string { return fmt.Sprintf("%.6f", v) }

// Secs2 formats seconds to a hundredth, without the unit: "1.25" (sweep
// and trade-off tables, where medians of close settings differ by less
// than a tenth).
func Secs2(v float64) string { return fmt.Sprintf("%.2f", noNegZero(v, 100)) }

// Percent1 formats a share as a percentage to a tenth, without the sign:
// "85.3".
func Percent1(v float64) string { return fmt.Sprintf("%.1f", noNegZero(100*v, 10)) }

// Count formats a count that may be a median of counts: "12", "12.5".
func Count(v float64) string { return strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0") }

// Secs3 formats seconds to a millisecond, without the unit: "0.375"
// (predict's arithmetic, where backoffs add up in milliseconds).
func Secs3(v float64) string { return fmt.Sprintf("%.3f", v) }

// GoDuration formats a duration as Go, drill's flags and its trip rules
// write it: "10s", "1m30s", "250ms".
func GoDuration(d time.Duration) string { return d.String() }

// Elapsed formats the time a run has been going as its progress line
// leads with it, to a tenth and padded to six characters: "  20.0s".
func Elapsed(d time.Duration) string { return fmt.Sprintf("%6.1fs", d.Seconds()) }

// Nanos formats a duration as its whole nanoseconds, as a journal's *_ns
// field holds it: "1500000000".
func Nanos(d time.Duration) string { return strconv.FormatInt(int64(d), 10) }

// Millions is a count in millions, to two decimals: tokens billed over a
// whole drill ("10.20 M").
func Millions(v float64) string { return fmt.Sprintf("%.2f M", v/1e6) }

// Noun is what, or its plural unless n is 1 (policy: policies, run: runs).
func Noun(n int, what string) string {
	switch {
	case n == 1:
		return what
	case strings.HasSuffix(what, "y") && !strings.HasSuffix(what, "ay") && !strings.HasSuffix(what, "ey"):
		return strings.TrimSuffix(what, "y") + "ies"
	}
	return what + "s"
}

// Plural is n and what: "1 run", "3 runs", "2 policies".
func Plural(n int, what string) string { return fmt.Sprintf("%d %s", n, Noun(n, what)) }
