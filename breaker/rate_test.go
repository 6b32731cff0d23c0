package breaker

import "testing"

func TestRateRuleWaitsForMinSamples(t *testing.T) {
	// rate ≥ 0.5 over 10 s, at least 4 calls: three failures alone do not
	// open it (too few samples); the fourth call, a success, makes 3 of 4.
	got := play(t, Settings{Trip: Trip{Rules: []string{RuleRate}, FailureRate: 0.5, MinSamples: 4}}, `
		0 start a
		0 start b
		0 start c
		0 start d
		1 fail a
		2 fail b
		3 fail c
		3 state closed
		4 ok d
		4 state open`)
	wantChanges(t, got, "open@4")
}

func TestRateRuleBelowThresholdStaysClosed(t *testing.T) {
	// 2 failures in 5 calls is 0.4 < 0.5; the window forgets old calls.
	play(t, Settings{Trip: Trip{Rules: []string{RuleRate}, MinSamples: 5}}, `
		0 start a
		0 start b
		0 start c
		0 start d
		0 start e
		1 fail a
		1 fail b
		1 ok c
		1 ok d
		1 ok e
		1 state closed
		# at 12 s the five calls above left the 10 s window: one failure is one sample
		12 start f
		12 fail f
		12 state closed`)
}
