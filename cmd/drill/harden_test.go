package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// TestCompletionUnknownShellExitsTwo: drill completion with a shell cobra
// does not generate is a usage error naming the valid shells.
func TestCompletionUnknownShellExitsTwo(t *testing.T) {
	_, stderr, code := execute(t.Context(), "completion", "nope")
	if code != 2 || !strings.Contains(stderr, "nope") || !strings.Contains(stderr, "bash, fish, powershell, zsh") {
		t.Errorf("exit %d, %q; want 2 listing the shells", code, stderr)
	}
	if _, stderr, code := execute(t.Context(), "completion"); code != 0 {
		t.Errorf("completion (help): exit %d, %s", code, stderr)
	}
}

// TestReplayJSONRejudgesAForgedPass: a summary line edited to say a failed
// hypothesis passed is judged again on the events: replay --json says it
// fails, with the measured value.
func TestReplayJSONRejudgesAForgedPass(t *testing.T) {
	j := filepath.Join(t.TempDir(), "h.jsonl")
	if _, stderr, code := execute(t.Context(), "run", "--clock", "virtual", "--json", "--outage", "busy", "--emails", "20",
		"--expect", "breaker_opens > 99", "--record", j); code != 1 {
		t.Fatalf("run: exit %d, want 1: %s", code, stderr)
	}
	data, err := os.ReadFile(j)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	last := lines[len(lines)-1]
	forged := bytes.Replace(last, []byte(`"pass":false`), []byte(`"pass":true`), 1)
	if bytes.Equal(forged, last) {
		t.Fatalf("no verdict to forge in %s", last)
	}
	lines[len(lines)-1] = forged
	if err := os.WriteFile(j, append(bytes.Join(lines, []byte("\n")), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := execute(t.Context(), "replay", "--json", j)
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, stderr)
	}
	var got scoring.Judged
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if len(got.Hypotheses) != 1 || got.Hypotheses[0].Pass {
		t.Errorf("hypotheses %+v: the forged pass was repeated", got.Hypotheses)
	}
}

// TestLatin1EmailsFailAlikeOnBothClocks: a Latin-1 CSV email file is a
// usage error naming the file, line and column on either clock (it ran on
// the real clock with its bytes mangled and exited 1 on the virtual one).
func TestLatin1EmailsFailAlikeOnBothClocks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "latin1.csv")
	if err := os.WriteFile(path, []byte("id,from,subject,body\n1,a@b.c,Caf\xe9,Mon caf\xe9 est froid.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, clock := range []string{"virtual", "real"} {
		_, stderr, code := execute(t.Context(), "run", "--clock", clock, "--no-tui", "--emails-file", path, "--outage", "none")
		if code != 2 || !strings.Contains(stderr, "latin1.csv:2") || !strings.Contains(stderr, "UTF-8") {
			t.Errorf("clock %s: exit %d, %q; want 2 naming the file, line and encoding", clock, code, stderr)
		}
	}
}

// TestCompareTenThousandOutagesExitsTwo: compare -f with 10,000 outages
// (which passed 3 GB in 5 s) is refused before any drill is planned, with
// the file and line; --repeat 1000000000 --dry-run names its flag.
func TestCompareTenThousandOutagesExitsTwo(t *testing.T) {
	var b strings.Builder
	b.WriteString("outages:\n")
	for i := range 10_000 {
		fmt.Fprintf(&b, "  - {name: o%d, kind: busy, from: 1s, to: 2s}\n", i)
	}
	path := filepath.Join(t.TempDir(), "many.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := execute(t.Context(), "compare", "-f", path, "--clock", "virtual")
	if code != 2 || !strings.Contains(stderr, "many.yaml:") || !strings.Contains(stderr, "more than 5000 keys") {
		t.Errorf("compare: exit %d, %q; want 2 naming the file and line", code, stderr)
	}
	_, stderr, code = execute(t.Context(), "sweep", "--repeat", "1000000000", "--dry-run")
	if code != 2 || !strings.Contains(stderr, "--repeat") {
		t.Errorf("sweep --repeat 1e9: exit %d, %q; want 2 naming --repeat", code, stderr)
	}
}
