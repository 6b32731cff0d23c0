package plain

import (
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// AlertNote says where a received alert came on the drill's clock:
// "alert BreakerOpen firing 5.2 s into the outage (1.8 s after the breaker
// opened)", "... (0.4 s before the breaker opened)", without a breaker open
// no parenthesis, and without an outage "alert BreakerOpen firing at
// 12.0 s".
func AlertNote(n scoring.AlertNote) string {
	s := "alert " + format.Text(n.Name) + " " + format.Text(n.Status)
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
