package main

import (
	"strings"
	"testing"
)

// drill history lists chat journals beside triage ones, each group with
// its own headline, and judges expectations on the figures they share.
func TestHistoryChatJournals(t *testing.T) {
	dir := t.TempDir()
	if _, stderr, code := execute(t.Context(), "sweep", "--workload", "chat", "--clock", "virtual", "--conversations", "20",
		"--repeat", "3", "--record", dir); code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, stderr)
	}
	if _, stderr, code := execute(t.Context(), "run", "--clock", "virtual", "--no-tui", "--emails", "20", "--record", dir+"/triage.jsonl"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	out, stderr, code := execute(t.Context(), "history", dir, "--expect", "answered >= 0")
	if code != 0 {
		t.Fatalf("history: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"chat: mixed × agent-defaults (3 runs)", "answered", "handed_over", "silent", "turn_limit", "time_p99_s",
		"over_120s", "tokens_billed", "breaker_opens", "busy × breaker (1 run)", "calls_to_broken_outage",
		"answered >= 0  chat: mixed × agent-defaults  PASS"} {
		if !strings.Contains(out, want) {
			t.Errorf("the history lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "2000-01-01") {
		t.Errorf("a virtual chat run is dated by its bubble's fake clock:\n%s", out)
	}
}
