package main

import (
	"context"
	"strings"
	"testing"
)

// drill history reads a recorded journal into its trend table; a bad
// grouping or expectation is a usage error (exit 2). The regression and
// the exit 1 are tested in internal/history over three recorded months.
func TestHistoryCommand(t *testing.T) {
	const j = "../../tui/testdata/tmux/hang-breaker.jsonl"
	out, errOut, code := execute(context.Background(), "history", j, "--expect", "calls_to_broken_outage <= previous * 1.2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"hang × breaker (1 run)", "calls_to_broken_outage  103", "no history"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, errOut, code := execute(context.Background(), "history", j, "--group-by", "month"); code != 2 || !strings.Contains(errOut, "--group-by") {
		t.Errorf("--group-by month: exit %d, %q", code, errOut)
	}
	if _, errOut, code := execute(context.Background(), "history", j, "--expect", "calls <= previous"); code != 2 || !strings.Contains(errOut, "unknown figure") {
		t.Errorf("a bad expectation: exit %d, %q", code, errOut)
	}
}
