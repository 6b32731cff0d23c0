package plain

import (
	"fmt"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// AbortReason says what aborted a run, to follow the word "aborted": "by
// max spend 0.000400: …" for a safeguard the fold names, else "by its
// time ceiling (160 s), which cancelled emails in flight or never sent".
// drill run, drill compare and the fleet print it from the summary, so
// they give one reason for one run.
func AbortReason(s scoring.Summary) string {
	if s.Safeguard != "" {
		return "by " + s.Safeguard
	}
	return fmt.Sprintf("by its time ceiling (%s), which cancelled emails in flight or never sent", format.Secs(s.CeilingS))
}
