package breaker

import "testing"

func TestCountRuleTrace(t *testing.T) {
	// The default rule: 5 failures within 10 s. Failures spread over more
	// than 10 s do not open; 5 within 10 s do, at the fifth.
	got := play(t, Settings{}, `
		0 start a
		1 fail a
		1 start b
		2 fail b
		2 start c
		3 fail c
		3 start d
		4 fail d
		# the failure at 1 s leaves the window at 11 s: still 4
		10 start e
		11 fail e
		11 state closed
		11 start f
		11 ignore f
		11 state closed
		11 start g
		11.5 fail g
		11.5 state open
		16 state open
		16.5 probe h
		16.5 rejected
		18 ok h
		18 state closed`)
	wantChanges(t, got, "open@11.5", "half-open@16.5", "closed@18")
}
