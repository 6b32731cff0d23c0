package breaker

import "testing"

// TestObserveJudgesAnOutcomeInTheStateItArrivesIn: a breaker told only a
// time and a verdict (the support-chat simulation's status breaker) counts
// any call's outcome: while closed a success ends the run of failures,
// however long ago its call started; while open nothing is looked at; while
// half-open the first outcome to arrive is the trial's verdict, whichever
// call it came from.
func TestObserveJudgesAnOutcomeInTheStateItArrivesIn(t *testing.T) {
	got := play(t, Settings{Trip: Trip{Consecutive: true, Failures: 3}, Cooldown: 30e9}, `
		0 observe-fail
		1 observe-fail
		# a call that started long before ends with a 200: the run restarts
		2 observe-ok
		3 observe-fail
		4 observe-fail
		4 state closed
		5 observe-fail
		5 state open
		# open: outcomes are not looked at, it stays open its 30 s
		10 observe-ok
		20 observe-fail
		34 state open
		35 probe trial
		36 rejected
		# the trial streams on; another call's 200 arrives first and closes it
		40 observe-ok
		40 state closed
		# the trial's own outcome, later, counts as any closed call's
		190 ok trial
		190 state closed`)
	wantChanges(t, got, "open@5", "half-open@35", "closed@40")
}

// TestObserveFailureWhileHalfOpenOpensAgain: a failure that arrives while
// the trial is out opens the breaker again for its cooldown.
func TestObserveFailureWhileHalfOpenOpensAgain(t *testing.T) {
	got := play(t, Settings{Trip: Trip{Consecutive: true, Failures: 1}, Cooldown: 30e9}, `
		0 observe-fail
		30 probe trial
		31 observe-fail
		31 state open
		60 state open
		61 state half-open
		61 probe next
		61.2 ignore next
		62 observe-ok
		62 state closed`)
	wantChanges(t, got, "open@0", "half-open@30", "open@31", "half-open@61", "closed@62")
}

// TestObserveIgnoredSaysNothing: an ignored outcome (a ticket released
// with Ignored) neither ends nor extends a run of failures.
func TestObserveIgnoredSaysNothing(t *testing.T) {
	got := play(t, Settings{Trip: Trip{Consecutive: true, Failures: 2}}, `
		0 observe-fail
		1 start a
		1 ignore a
		2 observe-fail
		2 state open`)
	wantChanges(t, got, "open@2")
}
