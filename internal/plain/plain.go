// Package plain is drill's plain-text view: the summary, tables and lines
// drill prints when it is not drawing the dashboard, and the figures of
// drill's own types (who served, the followed email, a run's status) that
// the dashboard and reports show beside them. Every unit in them (seconds,
// shares, money) is written by internal/format.
package plain

import (
	"fmt"
	"strings"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// Share formats k of n with its Wilson 95 % interval: "85% (78–90%)", or
// Dash when n is 0.
func Share(k, n int) string {
	if n <= 0 {
		return format.Dash
	}
	lo, hi := scoring.Wilson(k, n)
	return format.PercentCI(float64(k)/float64(n), [2]float64{lo, hi})
}

// All4 formats a summary's all-4-right with its interval, over the emails
// answered: "85% (78–90%)", or Dash when none was answered.
func All4(s scoring.Summary) string {
	if s.EmailsAnswered == 0 {
		return format.Dash
	}
	return format.PercentCI(s.All4Right, s.All4RightCI95)
}

// Served formats who served the emails: "72 / 48 / 0 / 0"
// (primary / backup / canned / error).
func Served(s scoring.Served) string {
	return fmt.Sprintf("%d / %d / %d / %d", s.Primary, s.Backup, s.Canned, s.Error)
}

// Followed formats the followed email's fate, as the chapter's Marcus
// column: "2.3 s (backup)", "error, 1.4 s", "cut off, 2.5 s" (the run's
// end cut it off), "not answered",
// "not sent", or Dash when no email is followed.
func Followed(f scoring.Followed) string {
	switch {
	case f.Email == 0:
		return format.Dash
	case f.SentS == nil:
		return "not sent"
	case f.WaitS == nil:
		return "not answered"
	case f.ServedBy == "cancelled":
		return "cut off, " + format.Seconds(f.WaitS)
	case f.ServedBy == event.ServedError:
		return "error, " + format.Seconds(f.WaitS)
	}
	return fmt.Sprintf("%s (%s)", format.Seconds(f.WaitS), f.ServedBy)
}

// Status formats how a run ended and what it covered: "completed", or for
// a run cut short or short of workers "interrupted: 50 of 120 sent (70 not
// sent: run stopped), 45 answered, 5 cut off" (then "N rejected" when the
// worker pool turned emails away).
func Status(s scoring.Summary) string {
	st := format.Text(s.Status)
	if s.NotSent == 0 && s.NeverAnswered == 0 && s.Served.Rejected == 0 && s.Served.Cancelled == 0 {
		return st
	}
	parts := []string{fmt.Sprintf("%d of %d sent", s.EmailsSent, s.Emails)}
	if s.NotSent > 0 {
		parts[0] += fmt.Sprintf(" (%d not sent: %s)", s.NotSent, format.Text(s.NotSentReason))
	}
	parts = append(parts, fmt.Sprintf("%d answered", s.EmailsAnswered))
	if n := s.Served.Cancelled; n > 0 {
		parts = append(parts, fmt.Sprintf("%d cut off", n))
	}
	if n := s.Served.Rejected; n > 0 {
		parts = append(parts, fmt.Sprintf("%d rejected", n))
	}
	return st + ": " + strings.Join(parts, ", ")
}

// NoOutage reports whether a run's figures cover no outage, injected or
// observed (its summary's outage_basis is none): its failed calls are
// failures on a healthy day, and no figure of it is about a broken model.
func NoOutage(s scoring.Summary) bool { return s.OutageBasis == scoring.BasisNone }

// Basis labels outage-relative figures that are relative to an observed
// failure window rather than an injected outage: " (observed)", else "".
func Basis(s scoring.Summary) string {
	if s.OutageBasis == scoring.BasisObserved {
		return " (observed)"
	}
	return ""
}
