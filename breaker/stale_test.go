package breaker

import "testing"

func TestStaleCountRestartsCooldown(t *testing.T) {
	// stale: count. Calls a and b start while closed; b's late failure,
	// while open, restarts the 5 s cooldown (from 3 s to 8 s).
	got := play(t, Settings{Trip: Trip{Failures: 1}, Stale: StaleCount}, `
		0 start a
		0 start b
		0 start c
		0 fail a
		0 state open
		3 fail b
		5 state open
		7.9 state open
		8 state half-open
		# c's late failure opens the half-open breaker again
		8.5 fail c
		8.5 state open`)
	wantChanges(t, got, "open@0", "half-open@8", "open@8.5")
}

func TestStaleDropIgnoresLateResults(t *testing.T) {
	got := play(t, Settings{Trip: Trip{Failures: 1}}, `
		0 start a
		0 start b
		0 fail a
		3 fail b
		5 state half-open
		5 probe c
		6 ok c
		6 state closed`)
	wantChanges(t, got, "open@0", "half-open@5", "closed@6")
}

func TestStaleCountFeedsTheNextClosedState(t *testing.T) {
	// A call from the previous closed state fails after the breaker closed
	// again: with stale: count it is counted (and here opens it).
	play(t, Settings{Trip: Trip{Failures: 1}, Stale: StaleCount}, `
		0 start a
		0 start b
		0 fail a
		5 probe c
		5 ok c
		5 state closed
		20 fail b
		20 state open`)
}
