package format

import (
	"strconv"
	"time"
)

// LogSecs formats an offset or a duration in a log line, to the
// millisecond and without a space, as key=value logs write it: "1.234s".
func LogSecs(d time.Duration) string { return string(AppendLogSecs(nil, d)) }

// AppendLogSecs appends LogSecs(d) to dst, for a log line built in one
// buffer.
func AppendLogSecs(dst []byte, d time.Duration) []byte {
	return append(strconv.AppendFloat(dst, d.Seconds(), 'f', 3, 64), 's')
}
