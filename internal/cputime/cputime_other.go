//go:build !unix

package cputime

import "time"

// Self is not measured here: 0.
func Self() time.Duration { return 0 }

// Children is not measured here: 0.
func Children() time.Duration { return 0 }
