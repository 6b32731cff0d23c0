package inject

import (
	"errors"
	"syscall"
	"testing"
	"testing/synctest"
)

// TestResetAtHeadersIsRetried: a connection dropped before the headers is
// a connection error the SDK retries twice.
func TestResetAtHeadersIsRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newRig(t, parse(t, "reset"))
		_, err := triageCall(t.Context(), rig.client(0, 2), email(0))
		if !errors.Is(err, syscall.ECONNRESET) || rig.attempts.n != 3 {
			t.Fatalf("%v after %d attempts, want a connection reset after 3", err, rig.attempts.n)
		}
	})
}

// TestResetMidBodyIsNotRetried: a 200 whose body breaks off fails the
// call after one attempt, streamed or not.
func TestResetMidBodyIsNotRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newRig(t, parse(t, "reset", "at=body", "after_chunks=2"))
		res := streamCall(t.Context(), rig.client(0, 2), email(0))
		if !errors.Is(res.err, syscall.ECONNRESET) || rig.attempts.n != 1 || res.chunks != 1 {
			t.Fatalf("stream: %v after %d attempts and %d content chunks, want a reset after 1 attempt and 1 chunk",
				res.err, rig.attempts.n, res.chunks)
		}
		_, err := triageCall(t.Context(), rig.client(0, 2), email(0))
		if !errors.Is(err, syscall.ECONNRESET) || rig.attempts.n != 2 {
			t.Fatalf("not streamed: %v after %d attempts in all, want a reset after 1 more", err, rig.attempts.n)
		}
	})
}
