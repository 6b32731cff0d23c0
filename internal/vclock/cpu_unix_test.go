//go:build unix

package vclock

import (
	"syscall"
	"time"
)

// childrenCPU is the user and system CPU time of this process's children
// that have been waited for (the virtual-clock processes).
func childrenCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
