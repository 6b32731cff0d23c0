// Package format is the one formatter for every figure drill shows:
// seconds, percentages, intervals, p-values and the "—" of a figure that
// does not exist. The summary table of drill run, drill compare's table,
// the dashboard and the reports all format through it, so one figure
// reads the same everywhere.
package format

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// Dash stands for a figure that does not exist (never happened, no data).
const Dash = "—"

// Text returns s, or Dash when it is empty.
func Text(s string) string {
	if s == "" {
		return Dash
	}
	return s
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

// Share formats k of n with its Wilson 95 % interval: "85% (78–90%)", or
// Dash when n is 0.
func Share(k, n int) string {
	if n <= 0 {
		return Dash
	}
	lo, hi := scoring.Wilson(k, n)
	return PercentCI(float64(k)/float64(n), [2]float64{lo, hi})
}

// All4 formats a summary's all-4-right with its interval, over the emails
// answered: "85% (78–90%)", or Dash when none was answered.
func All4(s scoring.Summary) string {
	if s.EmailsAnswered == 0 {
		return Dash
	}
	return PercentCI(s.All4Right, s.All4RightCI95)
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

// Served formats who served the emails: "72 / 48 / 0 / 0"
// (primary / backup / canned / error).
func Served(s scoring.Served) string {
	return fmt.Sprintf("%d / %d / %d / %d", s.Primary, s.Backup, s.Canned, s.Error)
}

// Followed formats the followed email's fate, as the chapter's Marcus
// column: "2.3 s (backup)", "error, 1.4 s", "cancelled", "not answered",
// "not sent", or Dash when no email is followed.
func Followed(f scoring.Followed) string {
	switch {
	case f.Email == 0:
		return Dash
	case f.SentS == nil:
		return "not sent"
	case f.WaitS == nil:
		return "not answered"
	case f.ServedBy == "cancelled":
		return "cancelled, " + Seconds(f.WaitS)
	case f.ServedBy == event.ServedError:
		return "error, " + Seconds(f.WaitS)
	}
	return fmt.Sprintf("%s (%s)", Seconds(f.WaitS), f.ServedBy)
}

// Status formats how a run ended and what it covered: "completed", or for
// a run cut short "interrupted: 50 of 120 sent (70 not sent: run stopped),
// 45 answered".
func Status(s scoring.Summary) string {
	st := Text(s.Status)
	if s.NotSent == 0 && s.NeverAnswered == 0 {
		return st
	}
	parts := []string{fmt.Sprintf("%d of %d sent", s.EmailsSent, s.Emails)}
	if s.NotSent > 0 {
		parts[0] += fmt.Sprintf(" (%d not sent: %s)", s.NotSent, Text(s.NotSentReason))
	}
	parts = append(parts, fmt.Sprintf("%d answered", s.EmailsAnswered))
	return st + ": " + strings.Join(parts, ", ")
}

// Basis labels outage-relative figures that are relative to an observed
// failure window rather than an injected outage: " (observed)", else "".
func Basis(s scoring.Summary) string {
	if s.OutageBasis == scoring.BasisObserved {
		return " (observed)"
	}
	return ""
}

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

// DurSpan formats a period given as durations: "5.3–10.3 s".
func DurSpan(start, end time.Duration) string { return Span(start.Seconds(), end.Seconds()) }
