package journal

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRunPath(t *testing.T) {
	if got, want := RunPath("runs", 2, "busy", "fail-fast"), filepath.Join("runs", "03-busy-fail-fast.jsonl"); got != want {
		t.Errorf("RunPath = %q, want %q", got, want)
	}
	if got := RunPath("d", 0, "hang", "fallback + breaker/../x"); strings.ContainsAny(filepath.Base(got), " /+") || filepath.Dir(got) != "d" {
		t.Errorf("RunPath did not make a safe name: %q", got)
	}
}

// TestChatRunPath: the name drill compare --workload chat records each
// run's journal under (docs/workloads.md quotes it).
func TestChatRunPath(t *testing.T) {
	for _, c := range []struct {
		policy string
		want   string
	}{
		{"agent-defaults", "01-chat-mixed-agent-defaults-seed1.jsonl"},
		{"agent-defaults+stream+budget", "01-chat-mixed-agent-defaults_stream_budget-seed1.jsonl"},
	} {
		if got := ChatRunPath("runs", 0, "mixed", c.policy, 1); got != filepath.Join("runs", c.want) {
			t.Errorf("ChatRunPath(%s) = %q, want %q", c.policy, got, c.want)
		}
	}
}

// TestExpand: a directory stands for its journals, sorted; one without any
// is an error, and so is a missing path.
func TestExpand(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"02-b.jsonl", "01-a.jsonl", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "notes.txt") // a file stands for itself, whatever its name
	got, err := Expand([]string{file, dir})
	want := []string{file, filepath.Join(dir, "01-a.jsonl"), filepath.Join(dir, "02-b.jsonl")}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Expand = %v, %v; want %v", got, err, want)
	}
	if _, err := Expand([]string{t.TempDir()}); err == nil || !strings.Contains(err.Error(), "holds no journals") {
		t.Errorf("an empty directory: %v", err)
	}
	if _, err := Expand([]string{filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing path is no error")
	}
}

// TestCheckRecord: an existing path is refused unless force; no path
// (not recording) and a path that does not exist are not.
func TestCheckRecord(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "j.jsonl")
	if err := os.WriteFile(existing, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckRecord(existing, false); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("existing file without force: %v, want a refusal naming --force", err)
	}
	for _, tc := range []struct {
		path  string
		force bool
	}{{existing, true}, {"", false}, {filepath.Join(dir, "new.jsonl"), false}} {
		if err := CheckRecord(tc.path, tc.force); err != nil {
			t.Errorf("CheckRecord(%q, %v) = %v, want nil", tc.path, tc.force, err)
		}
	}
}
