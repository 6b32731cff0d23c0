//go:build !unix

package vclock

import "time"

// childrenCPU is not measured here.
func childrenCPU() time.Duration { return 0 }
