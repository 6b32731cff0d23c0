package format

import (
	"fmt"
	"time"
)

// FileSecs formats a duration as a drill file writes it, in seconds to a
// tenth with no more digits than it has: "39s", "2.5s". drill validate's
// timeline uses it beside the file's own durations.
func FileSecs(d time.Duration) string {
	return fmt.Sprintf("%gs", d.Round(100*time.Millisecond).Seconds())
}
