package inject

import (
	"context"
	"errors"
	"net"
	"testing"
	"testing/synctest"
	"time"
)

// TestStallAfterThreeChunksFailsAtTheLimit: headers, the role chunk and
// two content chunks, then silence until the 5 s attempt limit.
func TestStallAfterThreeChunksFailsAtTheLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newRig(t, parse(t, "stall", "after_chunks=3"))
		start := time.Now()
		res := streamCall(t.Context(), rig.client(5*time.Second, 2), email(0))
		var ne net.Error
		if !errors.As(res.err, &ne) || !ne.Timeout() {
			t.Fatalf("error %v, want a client timeout", res.err)
		}
		if took := time.Since(start); took != 5*time.Second || rig.attempts.n != 1 {
			t.Errorf("failed after %s and %d attempts, want 5s and 1", took, rig.attempts.n)
		}
		if res.chunks != 2 {
			t.Errorf("%d content chunks before the stall, want 2 (the first of 3 is the role)", res.chunks)
		}
	})
}

// TestStallWithoutALimitWaitsForTheCaller: with no limit a stalled stream
// waits until the caller's context ends, and the not-streamed answer
// stalls after its first bytes the same way.
func TestStallWithoutALimitWaitsForTheCaller(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newRig(t, parse(t, "stall"))
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		start := time.Now()
		res := streamCall(ctx, rig.client(0, 2), email(1))
		if !errors.Is(res.err, context.DeadlineExceeded) || time.Since(start) != time.Minute {
			t.Errorf("stream: %v after %s, want the caller's deadline after 1m", res.err, time.Since(start))
		}
		ctx, cancel = context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		start = time.Now()
		if _, err := triageCall(ctx, rig.client(0, 2), email(1)); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != time.Minute {
			t.Errorf("not streamed: %v after %s, want the caller's deadline after 1m", err, time.Since(start))
		}
	})
}
