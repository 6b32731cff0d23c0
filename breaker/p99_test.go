package breaker

import "testing"

func TestP99RuleTrace(t *testing.T) {
	// p99 above 4 s over 10 s, at least 3 calls. With fewer than 100 calls
	// the p99 is the slowest call.
	got := play(t, Settings{Trip: Trip{Rules: []string{RuleP99}, P99: 4e9, MinSamples: 3}}, `
		0 start a
		0 start b
		0 start c
		# a takes 5 s: slow, but only one sample
		5 ok a
		5 state closed
		5.5 ok b
		5.5 state closed
		# the third sample: p99 is 5.5 s > 4 s
		6 ok c
		6 state open`)
	wantChanges(t, got, "open@6")
}

func TestP99RuleFastCallsStayClosed(t *testing.T) {
	play(t, Settings{Trip: Trip{Rules: []string{RuleP99}, P99: 4e9, MinSamples: 3}}, `
		0 start a
		0 start b
		0 start c
		1 fail a
		2 ok b
		3.9 ok c
		3.9 state closed`)
}
