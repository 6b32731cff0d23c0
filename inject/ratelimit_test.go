package inject

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// TestRateLimitRetryAfter: openai-go waits the server's Retry-After before
// each retry, so retry_after 20s with 2 retries fails after 40 s.
func TestRateLimitRetryAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newRig(t, parse(t, "rate-limit", "retry_after=20s"))
		start := time.Now()
		_, err := triageCall(t.Context(), rig.client(0, 2), email(0))
		took := time.Since(start)
		var apiErr *openai.Error
		if !errors.As(err, &apiErr) || apiErr.StatusCode != 429 || apiErr.Code != "rate_limit_exceeded" {
			t.Fatalf("error %v, want a 429 rate_limit_exceeded", err)
		}
		if h := apiErr.Response.Header; h.Get("Retry-After") != "20" || h.Get("Retry-After-Ms") != "20000" {
			t.Errorf("headers %v, want Retry-After 20 and retry-after-ms 20000", h)
		}
		if rig.attempts.n != 3 || took != 40*time.Second {
			t.Fatalf("%d attempts in %s, want 3 in 40s (two server-directed waits)", rig.attempts.n, took)
		}
		gaps := []time.Duration{rig.attempts.times[1].Sub(rig.attempts.times[0]), rig.attempts.times[2].Sub(rig.attempts.times[1])}
		if gaps[0] != 20*time.Second || gaps[1] != 20*time.Second {
			t.Errorf("waits between attempts %v, want 20s each", gaps)
		}
	})
}

// TestRateLimitBeyondTheSDKsCap: a Retry-After over openai-go's 2-minute
// default cap stops its retries at once; option.WithMaxRetryDelay raises
// the cap and the SDK waits the whole time.
func TestRateLimitBeyondTheSDKsCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newRig(t, parse(t, "rate-limit", "retry_after=3m"))
		start := time.Now()
		_, err := triageCall(t.Context(), rig.client(0, 2), email(0))
		if err == nil || rig.attempts.n != 1 || time.Since(start) != 0 {
			t.Fatalf("default cap: %v after %d attempts in %s; want a 429 after 1 attempt at once", err, rig.attempts.n, time.Since(start))
		}
		start = time.Now()
		_, err = triageCall(t.Context(), rig.client(0, 1, option.WithMaxRetryDelay(5*time.Minute)), email(0))
		if err == nil || rig.attempts.n != 3 || time.Since(start) != 3*time.Minute {
			t.Fatalf("5m cap, 1 retry: %v after %d attempts in %s; want 2 more attempts in 3m", err, rig.attempts.n, time.Since(start))
		}
	})
}

// TestRateLimitSpendCap: the quota 429 carries no hint; the SDK backs off
// on its own (0.5 s, then 1 s, less up to 25 % jitter) and fails.
func TestRateLimitSpendCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newRig(t, parse(t, "rate-limit", "spend_cap=true", "retry_after=20s"))
		start := time.Now()
		_, err := triageCall(t.Context(), rig.client(0, 2), email(0))
		took := time.Since(start)
		var apiErr *openai.Error
		if !errors.As(err, &apiErr) || apiErr.StatusCode != 429 || apiErr.Code != "insufficient_quota" {
			t.Fatalf("error %v, want a 429 insufficient_quota", err)
		}
		if apiErr.Response.Header.Get("Retry-After") != "" {
			t.Error("spend cap sent a Retry-After")
		}
		if rig.attempts.n != 3 || took < 1125*time.Millisecond || took > 1500*time.Millisecond {
			t.Fatalf("%d attempts in %s, want 3 in the SDK's own backoff (1.125–1.5 s)", rig.attempts.n, took)
		}
	})
}
