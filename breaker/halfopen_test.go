package breaker

import "testing"

func TestProbesN(t *testing.T) {
	// probes: 2 lets two callers through while half-open and closes after
	// both succeed; a third caller is refused meanwhile.
	got := play(t, Settings{Trip: Trip{Failures: 1}, Probes: 2}, `
		0 start a
		0 fail a
		5 probe b
		5.1 probe c
		5.2 rejected
		6 ok b
		6 state half-open
		6.5 ok c
		6.5 state closed`)
	wantChanges(t, got, "open@0", "half-open@5", "closed@6.5")
}

func TestProbesAll(t *testing.T) {
	// probes: all (the chapter's lab breaker): every caller goes through
	// while half-open; the first result decides.
	got := play(t, Settings{Trip: Trip{Failures: 1}, Probes: ProbesAll}, `
		0 start a
		0 fail a
		5 probe b
		5.5 probe c
		6 probe d
		6.2 ok c
		6.2 state closed
		# b and d belong to the half-open state: dropped
		7 fail b
		7 state closed`)
	wantChanges(t, got, "open@0", "half-open@5", "closed@6.2")
}
