package plain

import (
	"maps"
	"slices"
	"strings"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// AlertNote says where a received alert came on the drill's clock:
// "alert BreakerOpen firing 5.2 s into the outage (1.8 s after the breaker
// opened)", "... (0.4 s before the breaker opened)", without a breaker open
// no parenthesis, and without an outage "alert BreakerOpen firing at
// 12.0 s".
//
// An alert that is not the run's says so: "alert BreakerOpen firing at
// 0.8 s: stale, started 9.2 s before this run".
func AlertNote(n scoring.AlertNote) string {
	s := "alert " + format.Text(n.Name) + " " + format.Text(n.Status)
	if n.Not != "" {
		return s + " at " + format.Dur(n.At) + ": " + notTheRuns(n.ReceivedAlert)
	}
	if n.IntoOutage == nil {
		return s + " at " + format.Dur(n.At)
	}
	if *n.IntoOutage < 0 {
		s += " " + format.Dur(-*n.IntoOutage) + " before the outage"
	} else {
		s += " " + format.Dur(*n.IntoOutage) + " into the outage"
	}
	switch {
	case n.AfterOpen == nil:
		return s
	case *n.AfterOpen < 0:
		return s + " (" + format.Dur(-*n.AfterOpen) + " before the breaker opened)"
	default:
		return s + " (" + format.Dur(*n.AfterOpen) + " after the breaker opened)"
	}
}

// notTheRuns says why a received alert is not the run's: "stale, started
// 9.2 s before this run" or "foreign: drill_run names another run".
func notTheRuns(a scoring.ReceivedAlert) string {
	switch {
	case a.Not == scoring.AlertStale && a.StartRun != nil:
		return "stale, started " + format.Dur(-*a.StartRun) + " before this run"
	case a.Not == scoring.AlertStale:
		return "stale, started before this run"
	}
	return "foreign: its drill_run label names another run"
}

// NotTheRunsAlerts lists the alerts received that are not the run's and
// were never counted as fired, one line each, by name: "alert BreakerOpen:
// 1 stale firing (started 9.2 s before this run), not counted"; none when
// every alert received was the run's.
func NotTheRunsAlerts(s scoring.Summary) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(s.Alerts)) {
		a := s.Alerts[name]
		var parts []string
		if a.Stale > 0 {
			p := format.Plural(a.Stale, "stale firing")
			if a.StaleStartRunS != nil {
				p += " (the first started " + format.Secs(-*a.StaleStartRunS) + " before this run)"
			}
			parts = append(parts, p)
		}
		if a.Foreign > 0 {
			parts = append(parts, format.Plural(a.Foreign, "foreign firing")+" (drill_run "+format.Text(a.ForeignRun)+", another run)")
		}
		if len(parts) > 0 {
			out = append(out, "alert "+format.Text(name)+": "+strings.Join(parts, ", ")+", not counted as fired")
		}
	}
	return out
}

// alertRows are the summary's rows of the alerts received, one per alert
// name: what fired of the run's own, and what was not the run's.
func alertRows(row func(k, v string), s scoring.Summary) {
	for _, name := range slices.Sorted(maps.Keys(s.Alerts)) {
		a := s.Alerts[name]
		var parts []string
		if a.Fired > 0 || a.Notifications > 0 {
			p := format.Plural(a.Fired, "firing")
			if a.FirstS != nil {
				p += ", the first at " + format.Seconds(a.FirstS)
			}
			if a.ResolvedS != nil {
				p += ", resolved at " + format.Seconds(a.ResolvedS)
			}
			if a.FirstS != nil || a.ResolvedS != nil {
				p += " (from the outage's start)"
			}
			parts = append(parts, p)
		}
		if a.Stale > 0 {
			p := format.Plural(a.Stale, "stale firing")
			if a.StaleStartRunS != nil {
				p += " (started " + format.Secs(-*a.StaleStartRunS) + " before this run)"
			}
			parts = append(parts, p+", not counted")
		}
		if a.Foreign > 0 {
			parts = append(parts, format.Plural(a.Foreign, "foreign firing")+" (drill_run "+format.Text(a.ForeignRun)+"), not counted")
		}
		row("alert "+format.Text(name), strings.Join(parts, "; "))
	}
	if s.AlertsDropped > 0 {
		row("alerts dropped", format.Plural(s.AlertsDropped, "alert")+" past the receiver's bounds")
	}
}
