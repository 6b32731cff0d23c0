package breaker

import (
	"strings"
	"testing"
)

func TestRulesCombine(t *testing.T) {
	// count (3 in 10 s) and p99 (> 4 s, 3 calls): whichever says so first.
	s := Settings{Trip: Trip{Rules: []string{RuleCount, RuleP99}, Failures: 3, P99: 4e9, MinSamples: 3}}
	// Slow successes: p99 opens it.
	wantChanges(t, play(t, s, `
		0 start a
		0 start b
		0 start c
		1 ok a
		2 ok b
		6 ok c`), "open@6")
	// Fast failures: count opens it.
	wantChanges(t, play(t, s, `
		0 start a
		0 start b
		0 start c
		1 fail a
		1 fail b
		1 fail c`), "open@1")
}

func TestTripValidateListsRules(t *testing.T) {
	err := Trip{Rules: []string{"p95"}}.Validate()
	if err == nil || !strings.Contains(err.Error(), "count, consecutive, rate, slow-rate, p99, in-flight") {
		t.Fatalf("error %v, want one listing the valid rules", err)
	}
	if err := (Settings{Stale: "keep"}).Validate(); err == nil || !strings.Contains(err.Error(), "drop, count") {
		t.Fatalf("error %v, want one listing drop, count", err)
	}
	if err := (Trip{FailureRate: 1.5}).Validate(); err == nil {
		t.Fatal("a failure rate above 1 passed")
	}
}
