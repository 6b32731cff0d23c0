//go:build !unix

package fakemodel

import "time"

// cpuTime is not measured on this platform: cpu-ms/MB then reads 0.
func cpuTime() time.Duration { return 0 }
