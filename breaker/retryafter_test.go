package breaker

import "testing"

func TestRetryAfterHonoured(t *testing.T) {
	// A 503 with Retry-After 30 s opens the breaker; honoured, it stays
	// open 30 s, not the 5 s cooldown.
	got := play(t, Settings{Trip: Trip{Failures: 1}, RetryAfter: RetryAfterHonour}, `
		0 start a
		1 fail a retry-after 30s
		6 rejected
		30.9 rejected
		31 state half-open
		31 probe b
		32 ok b`)
	wantChanges(t, got, "open@1", "half-open@31", "closed@32")
}

func TestRetryAfterNotHonouredByDefault(t *testing.T) {
	got := play(t, Settings{Trip: Trip{Failures: 1}}, `
		0 start a
		1 fail a retry-after 30s
		6 state half-open`)
	wantChanges(t, got, "open@1", "half-open@6")
}
