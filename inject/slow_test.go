package inject

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
)

// TestSlowAddsDelayBeforeTheAnswer: the real answer arrives delay (plus
// jitter) later than it would have; a time limit shorter than that cuts
// every attempt.
func TestSlowAddsDelayBeforeTheAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		base := newRig(t, event.Window{FaultSpec: event.FaultSpec{Kind: "busy"}, From: time.Hour, To: 2 * time.Hour}) // never on
		start := time.Now()
		if _, err := triageCall(t.Context(), base.client(0, 0), email(3)); err != nil {
			t.Fatal(err)
		}
		healthy := time.Since(start)

		rig := newRig(t, parse(t, "slow", "delay=3s", "jitter=2s"))
		start = time.Now()
		a, err := triageCall(t.Context(), rig.client(0, 0), email(3))
		if err != nil || a.Intent == "" {
			t.Fatalf("slow call: %+v, %v; want the real answer", a, err)
		}
		extra := time.Since(start) - healthy
		if extra < 3*time.Second || extra >= 5*time.Second {
			t.Errorf("slow added %s, want 3s plus jitter under 2s", extra)
		}

		rig = newRig(t, parse(t, "slow", "delay=10s"))
		start = time.Now()
		_, err = triageCall(t.Context(), rig.client(2*time.Second, 2), email(3))
		if !errors.Is(err, context.DeadlineExceeded) || rig.attempts.n != 3 {
			t.Errorf("2s limit against a 10s delay: %v after %d attempts in %s; want a deadline after 3", err, rig.attempts.n, time.Since(start))
		}
	})
}

func TestSlowJitterIsSeededPerAttempt(t *testing.T) {
	w := parse(t, "slow", "delay=1s", "jitter=1s")
	f, _ := NewFault(w.FaultSpec)
	draw := func(body string) time.Duration {
		r := attemptRand(1, 0, "primary", []byte(body), "0")
		r.Float64() // the hit draw comes first
		return f.(*Slow).Delay + time.Duration(r.Int64N(int64(f.(*Slow).Jitter)))
	}
	if first, again := draw("a"), draw("a"); first != again {
		t.Error("the same attempt drew two jitters")
	}
	if draw("a") == draw("b") && draw("b") == draw("c") {
		t.Error("three attempts drew the same jitter")
	}
}
