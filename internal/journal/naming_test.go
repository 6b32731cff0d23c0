package journal

import (
	"path/filepath"
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
