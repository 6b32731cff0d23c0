//go:build !unix

package proxybench

import "time"

// cpuTime is 0 where the process's CPU time is not read: CPU figures are
// then 0.
func cpuTime() time.Duration { return 0 }
