package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// drill fleet runs the triage workload only: --workload chat, or a drill
// file with a chat: section, is a usage error (exit 2) that says so.
func TestFleetRefusesChat(t *testing.T) {
	file := filepath.Join(t.TempDir(), "chat.yaml")
	if err := os.WriteFile(file, []byte("chat:\n  conversations: 10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"fleet", "--workload", "chat"}, {"fleet", "-f", file}} {
		_, stderr, code := execute(t.Context(), args...)
		if code != 2 || !strings.Contains(stderr, "drill fleet does not support the chat workload yet") {
			t.Errorf("%v: exit %d, %q; want 2 and the chat workload named", args, code, stderr)
		}
	}
	if _, stderr, code := execute(t.Context(), "fleet", "--workload", "emails"); code != 2 || !strings.Contains(stderr, "unknown workload") {
		t.Errorf("an unknown workload: exit %d, %q", code, stderr)
	}
}
