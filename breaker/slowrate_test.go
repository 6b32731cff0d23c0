package breaker

import "testing"

func TestSlowRateRuleCountsSlowSuccesses(t *testing.T) {
	// Calls of 3 s or more are slow; half of at least 4 calls opens it,
	// even though every call succeeded.
	got := play(t, Settings{Trip: Trip{Rules: []string{RuleSlowRate}, SlowCall: 3e9, MinSamples: 4}}, `
		0 start a
		0 start b
		0 start c
		0 start d
		1 ok a
		# b is slow: 3.5 s
		3.5 ok b
		3.5 state closed
		3.6 ok c
		3.6 state closed
		# d makes 3 slow calls of 4: 0.75
		4 ok d
		4 state open`)
	wantChanges(t, got, "open@4")
}
