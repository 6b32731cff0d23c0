package inject

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/openai/openai-go/v3/option"
)

// TestHangUnderTheSDK: an attempt-scope limit (http.Client.Timeout) is
// retried, a request-scope one is not (DESIGN.md).
func TestHangUnderTheSDK(t *testing.T) {
	for _, c := range []struct {
		name     string
		client   func(*modelRig) (clientLimit time.Duration, opts []option.RequestOption)
		attempts int
		min, max time.Duration
	}{
		{"attempt scope", func(*modelRig) (time.Duration, []option.RequestOption) { return 5 * time.Second, nil },
			3, 15 * time.Second, 17 * time.Second},
		{"request scope", func(*modelRig) (time.Duration, []option.RequestOption) {
			return 0, []option.RequestOption{option.WithRequestTimeout(5 * time.Second)}
		}, 1, 5 * time.Second, 5 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rig := newRig(t, event.Window{FaultSpec: event.FaultSpec{Kind: "hang"}, To: -1})
				limit, opts := c.client(rig)
				start := time.Now()
				_, err := triageCall(t.Context(), rig.client(limit, 2, opts...), email(0))
				took := time.Since(start)
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("error %v, want a deadline", err)
				}
				if rig.attempts.n != c.attempts || took < c.min || took > c.max {
					t.Errorf("%d attempts in %s, want %d in %s–%s", rig.attempts.n, took, c.attempts, c.min, c.max)
				}
			})
		})
	}
}
