package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// A chat drill judges its checks (--expect, the drill file's hypotheses)
// on its own figures: a failed one exits 1 and is named; the journal keeps
// the checks, and replay judges them again on the recomputed figures, with
// the same JSON as the live run.
func TestChatExpect(t *testing.T) {
	dir := t.TempDir()
	journal := filepath.Join(dir, "chat.jsonl")
	args := []string{"run", "--workload", "chat", "--clock", "virtual", "--no-tui", "--json", "--conversations", "30",
		"--expect", "conversations == 30", "--expect", "answered > 30", "--record", journal}
	live, stderr, code := execute(t.Context(), args...)
	if code != 1 || !strings.Contains(stderr, "1 of 2 hypotheses failed") || !strings.Contains(stderr, "answered > 30 (measured") {
		t.Fatalf("run: exit %d, want 1 naming the failed check: %s", code, stderr)
	}
	var sum scoring.ChatSummary
	if err := json.Unmarshal([]byte(live), &sum); err != nil {
		t.Fatal(err)
	}
	if len(sum.Hypotheses) != 2 || !sum.Hypotheses[0].Pass || sum.Hypotheses[1].Pass || sum.Hypotheses[0].Value != 30.0 {
		t.Errorf("the summary's hypotheses: %+v", sum.Hypotheses)
	}
	replayed, stderr, code := execute(t.Context(), "replay", journal, "--json", "--no-tui")
	if code != 1 || replayed != live || strings.Contains(stderr, "differ") {
		t.Errorf("replay: exit %d (want 1), same JSON %v: %s", code, replayed == live, stderr)
	}
	if _, stderr, code := execute(t.Context(), "run", "--workload", "chat", "--clock", "virtual", "--no-tui", "--conversations", "5",
		"--expect", "served.error == 0"); code != 2 || !strings.Contains(stderr, `unknown figure "served.error"`) {
		t.Errorf("a triage figure on a chat drill: exit %d, want 2: %s", code, stderr)
	}
}
