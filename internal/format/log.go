package format

import (
	"fmt"
	"time"
)

// LogSecs formats an offset or a duration in a log line, to the
// millisecond and without a space, as key=value logs write it: "1.234s".
func LogSecs(d time.Duration) string { return fmt.Sprintf("%.3fs", d.Seconds()) }
