package breaker

import "testing"

func TestConsecutiveRuleWorkedTrace(t *testing.T) {
	// The worked trace of the "Circuit Breakers, Timeouts & Fallbacks"
	// lesson (seed 003): threshold 3, recovery 30 s.
	got := play(t, Settings{Trip: Trip{Rules: []string{RuleConsecutive}, Failures: 3}, Cooldown: 30e9}, `
		0 start a
		0 fail a
		2 start b
		2 fail b
		5 start c
		5 fail c
		5 state open
		# fallback instantly, no call
		10 rejected
		# half-open: the trial fails, open again
		35 probe d
		35 fail d
		35 state open
		# 15 s < 30 s
		50 rejected
		# the trial succeeds
		65 probe e
		65 ok e
		65 state closed`)
	wantChanges(t, got, "open@5", "half-open@35", "open@35", "half-open@65", "closed@65")
}

func TestConsecutiveRuleSuccessResets(t *testing.T) {
	play(t, Settings{Trip: Trip{Consecutive: true, Failures: 2}}, `
		0 start a
		0 fail a
		1 start b
		1 ok b
		2 start c
		2 fail c
		2 state closed
		3 start d
		3 fail d
		3 state open`)
}
