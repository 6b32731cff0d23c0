package format

import (
	"github.com/drill-dev/drill/scoring"
)

// AlertNote says where a received alert came on the drill's clock:
// "alert BreakerOpen firing 5.2 s into the outage (1.8 s after the breaker
// opened)", "... (0.4 s before the breaker opened)", without a breaker open
// no parenthesis, and without an outage "alert BreakerOpen firing at
// 12.0 s".
func AlertNote(n scoring.AlertNote) string {
	s := "alert " + Text(n.Name) + " " + Text(n.Status)
	if n.IntoOutage == nil {
		return s + " at " + Dur(n.At)
	}
	if *n.IntoOutage < 0 {
		s += " " + Dur(-*n.IntoOutage) + " before the outage"
	} else {
		s += " " + Dur(*n.IntoOutage) + " into the outage"
	}
	switch {
	case n.AfterOpen == nil:
		return s
	case *n.AfterOpen < 0:
		return s + " (" + Dur(-*n.AfterOpen) + " before the breaker opened)"
	default:
		return s + " (" + Dur(*n.AfterOpen) + " after the breaker opened)"
	}
}
