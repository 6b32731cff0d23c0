package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/journal"
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

// TestHistoryGroupsByDrillFile: a run planned from a drill file records
// the file as drill_file in its journal header, and drill history
// --group-by file keeps the runs of each file apart; a run from flags
// alone groups by outage × policy.
func TestHistoryGroupsByDrillFile(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"monthly", "weekly"} {
		file := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(file, []byte("workload: {emails: 6, rate: 20, follow: 1}\noutages: [{kind: busy, from: 0s, to: 1s}]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		rec := filepath.Join(dir, name+".jsonl")
		if _, errOut, code := execute(t.Context(), "run", "-f", file, "--clock", "virtual", "--no-tui", "--record", rec); code != 0 {
			t.Fatalf("drill run -f %s: exit %d: %s", file, code, errOut)
		}
		j, err := journal.ReadFile(rec)
		if err != nil {
			t.Fatal(err)
		}
		var cfg struct {
			DrillFile string `json:"drill_file"`
		}
		if err := json.Unmarshal(j.Header.Config, &cfg); err != nil || cfg.DrillFile != file {
			t.Errorf("%s's header records drill_file %q (%v), want %s", rec, cfg.DrillFile, err, file)
		}
	}
	if _, errOut, code := execute(t.Context(), "run", "--clock", "virtual", "--no-tui", "--emails", "6", "--rate", "20", "--follow", "1",
		"--outage-from", "0s", "--outage-to", "1s", "--record", filepath.Join(dir, "flags.jsonl")); code != 0 {
		t.Fatalf("drill run: exit %d: %s", code, errOut)
	}
	page := filepath.Join(t.TempDir(), "history.html")
	out, errOut, code := execute(t.Context(), "history", dir, "--group-by", "file", "-o", page)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if html, err := os.ReadFile(page); err != nil || !strings.Contains(string(html), "<h2>monthly.yaml: busy × breaker (1 run)</h2>") {
		t.Errorf("-o %s: %v, or the page lacks the monthly drill", page, err)
	}
	lines := strings.Split(out, "\n")
	for _, want := range []string{"monthly.yaml: busy × breaker (1 run)", "weekly.yaml: busy × breaker (1 run)", "busy × breaker (1 run)"} {
		if !slices.Contains(lines, want) {
			t.Errorf("drill history --group-by file lacks %q:\n%s", want, out)
		}
	}
}
