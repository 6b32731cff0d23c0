package breaker

import (
	"testing"
	"time"
)

// TestRecordReadsTheRulesInForce: what a run's header records of the trip
// rule is the rules in force, however they were given: --trip consecutive
// and the older consecutive: true record the same; a window only where a
// rule counts in one.
func TestRecordReadsTheRulesInForce(t *testing.T) {
	for _, tc := range []struct {
		name        string
		trip        Trip
		consecutive bool
		window      time.Duration
	}{
		{"default count rule", Trip{}, false, 10 * time.Second},
		{"consecutive, by rules", Trip{Rules: []string{RuleConsecutive}}, true, 0},
		{"consecutive, the older flag", Trip{Consecutive: true}, true, 0},
		{"count and consecutive", Trip{Rules: []string{RuleCount, RuleConsecutive}}, false, 10 * time.Second},
		{"in flight alone", Trip{Rules: []string{RuleInFlight}}, false, 0},
		{"p99 in its window", Trip{Rules: []string{RuleP99}, Window: 30 * time.Second}, false, 30 * time.Second},
	} {
		r := Settings{Trip: tc.trip}.Record()
		if r.Consecutive != tc.consecutive || r.Window != tc.window {
			t.Errorf("%s: consecutive %v, window %s; want %v, %s", tc.name, r.Consecutive, r.Window, tc.consecutive, tc.window)
		}
	}
}
