package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/journal"
)

// TestOutputsRefuseExistingFilesAndInputs: every output flag (-o,
// --record, init's FILE) refuses an existing file without --force, and a
// file that is one of the command's own inputs even with --force (exit 2,
// before any work); the input is left as it was. drill history's -o has
// its own test.
func TestOutputsRefuseExistingFilesAndInputs(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "emails", "emails.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	emailsFile := filepath.Join(dir, "mine.jsonl")
	lines := bytes.SplitAfter(data, []byte("\n"))
	if err := os.WriteFile(emailsFile, bytes.Join(lines[:5], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	existing := filepath.Join(dir, "existing.out")
	drillFile := filepath.Join(dir, "drill.yaml")
	if err := os.WriteFile(existing, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := execute(t.Context(), "init", drillFile); code != 0 {
		t.Fatalf("drill init exited %d: %s", code, stderr)
	}
	j := filepath.Join(dir, "run.jsonl")
	if _, stderr, code := execute(t.Context(), "run", "--no-tui", "--clock", "virtual", "--emails", "3", "--follow", "1", "--record", j); code != 0 {
		t.Fatalf("recording a run exited %d: %s", code, stderr)
	}
	// compare --record DIR names its journals: one of them is the emails file.
	runsDir := filepath.Join(dir, "runs")
	if err := os.Mkdir(runsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	compareOver := journal.RunPath(runsDir, 0, "hang", "breaker")
	if err := os.WriteFile(compareOver, bytes.Join(lines[:5], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	// A relative spelling of the same file is the same file.
	rel, err := filepath.Rel(mustGetwd(t), emailsFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		args  []string
		input string // the file that must be left untouched
		want  string // in stderr
	}{
		{"run --record existing", []string{"run", "--no-tui", "--clock", "virtual", "--emails", "3", "--record", existing}, existing, "--force"},
		{"run --record its emails file", []string{"run", "--no-tui", "--clock", "virtual", "--emails-file", emailsFile, "--record", rel, "--force"}, emailsFile, "inputs"},
		{"run --record its drill file", []string{"run", "--no-tui", "--clock", "virtual", "-f", drillFile, "--record", drillFile, "--force"}, drillFile, "inputs"},
		{"chat run --record its drill file", []string{"run", "--workload", "chat", "--no-tui", "--clock", "virtual", "-f", drillFile, "--record", drillFile, "--force"}, drillFile, "inputs"},
		{"compare --record over its emails file", []string{"compare", "--clock", "virtual", "--outages", "hang", "--policies", "breaker", "--emails-file", compareOver, "--record", runsDir, "--force"}, compareOver, "inputs"},
		{"fleet --record existing", []string{"fleet", "--no-tui", "--emails", "3", "--record", existing}, existing, "--force"},
		{"fleet --record its drill file", []string{"fleet", "--no-tui", "-f", drillFile, "--record", drillFile, "--force"}, drillFile, "inputs"},
		{"proxy --record existing", []string{"proxy", "--no-tui", "--listen", "127.0.0.1:0", "--record", existing}, existing, "--force"},
		{"proxy --record its outage journal", []string{"proxy", "--no-tui", "--listen", "127.0.0.1:0", "--outage-from-journal", j, "--record", j, "--force"}, j, "inputs"},
		{"report -o existing", []string{"report", j, "-o", existing}, existing, "--force"},
		{"report -o its journal", []string{"report", j, "-o", j, "--force"}, j, "inputs"},
		{"report -o its journal, as a directory", []string{"report", dir, "-o", j, "--force"}, j, "inputs"},
		{"init existing", []string{"init", existing}, existing, "--force"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, err := os.ReadFile(tc.input)
			if err != nil {
				t.Fatal(err)
			}
			// Bounded: a command that is not refused runs (the proxy until
			// stopped).
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			_, stderr, code := execute(ctx, tc.args...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want 2 naming %q; stderr: %s", code, tc.want, stderr)
			}
			after, err := os.ReadFile(tc.input)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(before, after) {
				t.Errorf("%s was changed", tc.input)
			}
		})
	}
}

func mustGetwd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}
