//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Self is this process's user and system CPU time so far (0 if it cannot
// be read).
func Self() time.Duration { return usage(syscall.RUSAGE_SELF) }

// Children is the user and system CPU time of this process's children that
// have been waited for (0 if it cannot be read).
func Children() time.Duration { return usage(syscall.RUSAGE_CHILDREN) }

// usage reads who's CPU time from getrusage.
func usage(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
