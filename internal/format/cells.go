package format

import (
	"fmt"
	"math"
	"time"
)

// Cell formats a duration as seconds for a narrow table cell or an axis
// label, with decimals digits and no space before the unit: Cell(1234 ms,
// 1) is "1.2s". Prose, headers and summaries use Dur ("1.2 s").
func Cell(d time.Duration, decimals int) string {
	v := d.Seconds()
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Dash
	}
	scale := math.Pow(10, float64(decimals))
	return fmt.Sprintf("%.*fs", decimals, noNegZero(v, scale))
}

// DurFine formats a duration as seconds to a hundredth, for sub-second
// figures such as the time to a stream's first token: "0.23 s".
func DurFine(d time.Duration) string {
	return fmt.Sprintf("%.2f s", noNegZero(d.Seconds(), 100))
}

// Setting formats a configured duration as written in a policy, with no
// more digits than it has: "5 s", "2.5 s".
func Setting(d time.Duration) string { return fmt.Sprintf("%g s", d.Seconds()) }

// SettingSpan formats a range of configured-style durations, such as an
// SDK's backoff with its jitter: "0.375–0.5 s", or Setting(lo) when both
// ends agree.
func SettingSpan(lo, hi time.Duration) string {
	if lo == hi {
		return Setting(lo)
	}
	return fmt.Sprintf("%g–%g s", lo.Seconds(), hi.Seconds())
}

// Rate formats a per-second figure to a tenth with its unit: Rate(12.34,
// "tokens") is "12.3 tokens/s".
func Rate(v float64, unit string) string {
	return fmt.Sprintf("%.1f %s/s", noNegZero(v, 10), unit)
}

// PercentOf formats k of n as a whole percentage without its interval:
// "85%", or Dash when n is 0. Share adds the interval.
func PercentOf(k, n int) string {
	if n <= 0 {
		return Dash
	}
	return Percent(float64(k) / float64(n))
}

// DurOf formats a position in a span, both as seconds to a tenth: "20.0/60.7 s".
func DurOf(pos, end time.Duration) string {
	return fmt.Sprintf("%.1f/%s", noNegZero(pos.Seconds(), 10), Dur(end))
}
