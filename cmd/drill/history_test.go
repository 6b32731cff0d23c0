package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/journal"
)

// drill history reads a recorded journal into its trend table; a bad
// grouping or expectation is a usage error (exit 2). The regression and
// the exit 1 are tested in internal/history over three recorded months.
func TestHistoryCommand(t *testing.T) {
	const j = "../../tui/testdata/tmux/hang-breaker.jsonl"
	out, errOut, code := execute(context.Background(), "history", j, "--expect", "calls_to_broken_outage <= 110")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"hang × breaker (1 run)", "calls_to_broken_outage  103", "PASS"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// previous, max, min… on a lone run compare with nothing: exit 2, said.
	for _, ref := range []string{"previous * 1.2", "max", "min"} {
		out, errOut, code := execute(context.Background(), "history", j, "--expect", "calls_to_broken_outage <= "+ref)
		if code != 2 || !strings.Contains(errOut, "nothing to compare") || !strings.Contains(out, "no history") {
			t.Errorf("--expect '... <= %s' on one run: exit %d, stderr %q, want 2 saying nothing to compare", ref, code, errOut)
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
	t.Parallel() // CPU only, no timing bound: runs beside the others
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

// TestHistoryOutputNeverOverwritesAnInput: -o naming a journal read is
// refused (exit 2) even with --force, and the journal is unchanged; an
// existing -o file needs --force.
func TestHistoryOutputNeverOverwritesAnInput(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../../tui/testdata/tmux/hang-breaker.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	x := filepath.Join(dir, "x.jsonl")
	if err := os.WriteFile(x, src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"history", x, "-o", x}, {"history", x, "-o", x, "--force"}, {"history", dir, "-o", x, "--force"}} {
		if _, errOut, code := execute(t.Context(), args...); code != 2 || !strings.Contains(errOut, "never overwrites") {
			t.Errorf("%v: exit %d, stderr %q, want 2 refusing to overwrite an input", args[1:], code, errOut)
		}
		if got, _ := os.ReadFile(x); !bytes.Equal(got, src) {
			t.Fatalf("%v overwrote the journal", args[1:])
		}
	}
	page := filepath.Join(dir, "h.html")
	if err := os.WriteFile(page, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := execute(t.Context(), "history", x, "-o", page); code != 2 || !strings.Contains(errOut, "--force") {
		t.Errorf("an existing -o file: exit %d, stderr %q, want 2 asking for --force", code, errOut)
	}
	if got, _ := os.ReadFile(page); string(got) != "keep" {
		t.Error("an existing -o file was overwritten without --force")
	}
	if _, errOut, code := execute(t.Context(), "history", x, "-o", page, "--force"); code != 0 {
		t.Errorf("--force: exit %d, %s", code, errOut)
	}
	if got, _ := os.ReadFile(page); !bytes.Contains(got, []byte("<html")) {
		t.Error("--force did not write the page")
	}
}

// TestHistoryInterrupted: once the context has ended (the first Ctrl-C or
// SIGTERM), drill history stops with exit 130 and writes no page.
func TestHistoryInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	page := filepath.Join(t.TempDir(), "h.html")
	if _, errOut, code := execute(ctx, "history", "../../tui/testdata/tmux/hang-breaker.jsonl", "-o", page); code != 130 {
		t.Errorf("exit %d (stderr %q), want 130", code, errOut)
	}
	if _, err := os.Stat(page); err == nil {
		t.Error("an interrupted history wrote its page")
	}
}

// TestHistoryRealProcessSIGINT: the first SIGINT stops drill history
// reading a directory of journals within a second, exit 130, and leaves no
// page and no temporary file.
func TestHistoryRealProcessSIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(inputHeader + "\n" + inputRunStart + "\n")
	for i := 1; i < 100_000; i++ {
		fmt.Fprintf(&b, `{"type":"event","seq":%d,"at_ns":1,"kind":"attempt_start","email":1,"rung":"primary"}`+"\n", i)
	}
	for i := range 40 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%02d.jsonl", i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	page := filepath.Join(out, "h.html")
	cmd := runDrillMain(t, "history", dir, "-o", page)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	fdDir := filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "fd")
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && !holdsOpen(fdDir, filepath.Join(dir, "r00.jsonl")); {
		time.Sleep(5 * time.Millisecond)
	}
	signalled := time.Now()
	_ = cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	took := time.Since(signalled)
	var ee *exec.ExitError
	switch {
	case err == nil:
		// Forty journals of 100,000 events take seconds: finishing before
		// a signal sent once the first is open means the signal was lost.
		t.Errorf("drill history finished (exit 0) after SIGINT, want exit status 130 (stderr %q)", stderr.String())
	case !errors.As(err, &ee) || ee.ExitCode() != 130:
		t.Errorf("%v, want exit status 130 (stderr %q)", err, stderr.String())
	case took > 2*time.Second: // a second, and slack for a loaded machine
		t.Errorf("stopped %v after SIGINT, want within a second", took)
	}
	if left, _ := os.ReadDir(out); len(left) != 0 {
		t.Errorf("an interrupted history left %d files in the output directory", len(left))
	}
}
