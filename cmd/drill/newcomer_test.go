package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/workload"
)

// TestRecordRefusesToOverwriteEverywhere: --record keeps an existing file
// (exit 2, pointing at --force) on the virtual clock and in drill proxy, as
// it does on the real clock; the file is left as it was.
func TestRecordRefusesToOverwriteEverywhere(t *testing.T) {
	const kept = "a journal written by hand\n"
	dir := t.TempDir()
	file := filepath.Join(dir, "kept.jsonl")
	compareDir := filepath.Join(dir, "runs")
	inDir := journal.RunPath(compareDir, 0, "busy", "breaker")
	if err := os.MkdirAll(compareDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		path string
		args []string
	}{
		{"run, real clock", file, []string{"run", "--no-tui", "--record", file, "--emails", "2"}},
		{"run, virtual clock", file, []string{"run", "--no-tui", "--clock", "virtual", "--record", file, "--emails", "2"}},
		{"compare, virtual clock", inDir, []string{"compare", "--clock", "virtual", "--outages", "busy", "--policies", "breaker", "--record", compareDir, "--emails", "2"}},
		{"proxy", file, []string{"proxy", "--no-tui", "--listen", "127.0.0.1:0", "--record", file}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(tc.path, []byte(kept), 0o644); err != nil {
				t.Fatal(err)
			}
			// A proxy that does not refuse runs until interrupted.
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			_, stderr, code := execute(ctx, tc.args...)
			if code != 2 {
				t.Errorf("exit code %d, want 2 (stderr: %s)", code, stderr)
			}
			if !strings.Contains(stderr, "already exists") || !strings.Contains(stderr, "--force") {
				t.Errorf("message %q does not say the file exists and point at --force", stderr)
			}
			if b, err := os.ReadFile(tc.path); err != nil || string(b) != kept {
				t.Errorf("the existing file was changed (now %.80q…), %v", b, err)
			}
		})
	}
}

// TestRecordForceOverwritesOnTheVirtualClock: --force lets --record replace
// the file with the run's journal.
func TestRecordForceOverwritesOnTheVirtualClock(t *testing.T) {
	file := filepath.Join(t.TempDir(), "old.jsonl")
	if err := os.WriteFile(file, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := execute(t.Context(), "run", "--no-tui", "--clock", "virtual", "--record", file, "--force", "--emails", "2")
	if code != 0 {
		t.Fatalf("exit code %d, want 0 (stderr: %s)", code, stderr)
	}
	if _, err := journal.ReadFile(file); err != nil {
		t.Errorf("--force did not leave the run's journal: %v", err)
	}
}

// TestReportExpectExitCode: drill report exits 1 when a hypothesis given
// with --expect fails on a run, as run and replay do, and still writes the
// report; 0 when it passes.
func TestReportExpectExitCode(t *testing.T) {
	dir := t.TempDir()
	j := filepath.Join(dir, "run.jsonl")
	if _, stderr, code := execute(t.Context(), "run", "--no-tui", "--clock", "virtual", "--emails", "3", "--follow", "1", "--record", j); code != 0 {
		t.Fatalf("recording a run exited %d: %s", code, stderr)
	}
	out := filepath.Join(dir, "report.md")
	if _, stderr, code := execute(t.Context(), "report", j, "-o", out, "--dpi", "24", "--expect", "emails_sent == 3"); code != 0 {
		t.Errorf("a passing --expect: exit %d, want 0 (stderr: %s)", code, stderr)
	}
	if err := os.Remove(out); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := execute(t.Context(), "report", j, "-o", out, "--dpi", "24", "--expect", "emails_sent > 3")
	if code != 1 {
		t.Errorf("a failing --expect: exit %d, want 1 (stderr: %s)", code, stderr)
	}
	if !strings.Contains(stderr, "emails_sent > 3 (measured 3)") {
		t.Errorf("stderr %q does not name the failed hypothesis and its value", stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("the report was not written: %v", err)
	}
}

// TestPredictTakesFileAndEveryKind: drill predict reads a drill file with
// -f, its help lists every outage kind run takes, and a kind the arithmetic
// does not read is said in place of figures (exit 0), in the words of the
// summary's predicted_note.
func TestPredictTakesFileAndEveryKind(t *testing.T) {
	out, stderr, code := execute(t.Context(), "predict", "-f", "../../examples/chapter.yaml")
	if code != 0 || !strings.HasPrefix(out, "predict: ") || !strings.Contains(out, "calls to the broken model during the outage:") {
		t.Errorf("predict -f: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	help, _, _ := execute(t.Context(), "predict", "--help")
	for _, kind := range workload.OutageKinds() {
		if !strings.Contains(help, kind) {
			t.Errorf("predict --help does not list the outage kind %q", kind)
		}
	}
	if strings.Contains(help, "busy or hang") {
		t.Error(`predict --help still says --outage is "busy or hang"`)
	}
	out, stderr, code = execute(t.Context(), "predict", "--outage", "trickle", "--json")
	if code != 0 {
		t.Fatalf("predict --outage trickle: exit %d (stderr: %s)", code, stderr)
	}
	var predicted struct {
		Note  string      `json:"predicted_note"`
		Calls *[2]float64 `json:"predicted_calls_to_broken"`
	}
	if err := json.Unmarshal([]byte(out), &predicted); err != nil {
		t.Fatalf("predict --json: %v\n%s", err, out)
	}
	out, stderr, code = execute(t.Context(), "run", "--clock", "virtual", "--json", "--outage", "trickle", "--emails", "2", "--follow", "1")
	if code != 0 {
		t.Fatalf("run --outage trickle: exit %d (stderr: %s)", code, stderr)
	}
	var sum struct {
		Note string `json:"predicted_note"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("run --json: %v\n%s", err, out)
	}
	if predicted.Note == "" || predicted.Note != sum.Note || predicted.Calls != nil {
		t.Errorf("predict's note %q (calls %v), the summary's predicted_note %q: want the same note and no calls", predicted.Note, predicted.Calls, sum.Note)
	}
}

// TestInitFileRunsOnBothClocks: the file drill init writes runs with
// --clock virtual under run and compare (its abort conditions start
// commented out), and every virtual-clock command refuses live abort
// conditions alike: sweep no longer drops them silently.
func TestInitFileRunsOnBothClocks(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "drill.yaml")
	if _, stderr, code := execute(t.Context(), "init", file); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	small := []string{"-f", file, "--clock", "virtual", "--emails", "6", "--follow", "1"}
	for _, cmd := range [][]string{{"run", "--no-tui", "--json"}, {"compare", "--json"}} {
		if _, stderr, code := execute(t.Context(), append(cmd, small...)...); code == 2 {
			t.Errorf("%s -f drill.yaml --clock virtual: exit 2: %s", cmd[0], stderr)
		}
	}
	aborting := filepath.Join(dir, "abort.yaml")
	if err := os.WriteFile(aborting, []byte("abort:\n  - served.error > 20\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"run", "--no-tui"}, {"compare"}, {"sweep", "--no-tui", "--primary-timeout", "1s,2s"}} {
		args := append(cmd, "-f", aborting, "--clock", "virtual", "--emails", "6", "--follow", "1")
		if _, stderr, code := execute(t.Context(), args...); code != 2 || !strings.Contains(stderr, "--clock real") {
			t.Errorf("%s with abort conditions on the virtual clock: exit %d, want 2 pointing at --clock real (stderr: %s)", cmd[0], code, stderr)
		}
	}
}

// TestDidYouMean: an unknown flag, value or figure names the nearest valid
// one by edit distance, and an unknown figure no longer lists every figure.
func TestDidYouMean(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--outgae", "busy"}, "unknown flag: --outgae; did you mean --outage?"},
		{[]string{"run", "--policy", "brekaer"}, "did you mean breaker?"},
		{[]string{"run", "--outage", "hnag"}, "did you mean hang?"},
		{[]string{"run", "--expect", "served.eror == 0"}, `unknown figure "served.eror"; did you mean "served.error"?`},
	} {
		_, stderr, code := execute(t.Context(), tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
		if strings.Contains(stderr, "canned_share") {
			t.Errorf("%v: the message lists every figure: %q", tc.args, stderr)
		}
	}
}

// TestCostOnlyWhenPriced: a fake-model run without --price prints its
// tokens but no cost line (nor a report's cost columns); with a price it
// prints the cost.
func TestCostOnlyWhenPriced(t *testing.T) {
	dir := t.TempDir()
	base := []string{"run", "--no-tui", "--clock", "virtual", "--emails", "4", "--follow", "1"}
	j := filepath.Join(dir, "unpriced.jsonl")
	out, stderr, code := execute(t.Context(), append(base, "--record", j)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "tokens (input / output)") || strings.Contains(out, "\ncost ") || strings.Contains(out, "no price for") {
		t.Errorf("an unpriced run's summary:\n%s\nwant tokens and no cost line", out)
	}
	md := filepath.Join(dir, "report.md")
	if _, stderr, code := execute(t.Context(), "report", j, "-o", md, "--dpi", "24"); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	if data, err := os.ReadFile(md); err != nil || strings.Contains(string(data), "| Cost |") || !strings.Contains(string(data), "| Input tokens |") {
		t.Errorf("an unpriced report's tokens table (err %v) has cost columns or no tokens:\n%s", err, data)
	}
	out, stderr, code = execute(t.Context(), append(base, "--price", "gpt-5.4-mini=0.25/2")...)
	if code != 0 || !strings.Contains(out, "\ncost ") {
		t.Errorf("a priced run: exit %d, no cost line:\n%s%s", code, out, stderr)
	}
}

// TestPredictSDK: --sdk picks the client library predicted for (the
// issue's 429 storm with Retry-After 90 s: 3 attempts for the npm package,
// 1 for openai-python), the drill file's predict.sdk does too, and an
// unknown name exits 2 listing the valid ones.
func TestPredictSDK(t *testing.T) {
	attempts := func(args ...string) (int, string) {
		t.Helper()
		out, stderr, code := execute(t.Context(), append([]string{"predict", "--outage", "rate-limit", "--fault", "retry_after=90s", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("predict %v: exit %d (stderr: %s)", args, code, stderr)
		}
		var p struct {
			Attempts int    `json:"attempts"`
			SDK      string `json:"sdk"`
		}
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatalf("predict --json: %v\n%s", err, out)
		}
		return p.Attempts, p.SDK
	}
	if n, sdk := attempts("--sdk", "node"); n != 3 || sdk != "openai-node 7.60.0" {
		t.Errorf("--sdk node: %d attempts (%s), want 3", n, sdk)
	}
	if n, sdk := attempts("--sdk", "python"); n != 1 || sdk != "openai-python 3.3.1" {
		t.Errorf("--sdk python: %d attempts (%s), want 1", n, sdk)
	}
	if n, sdk := attempts(); n != 1 || sdk != "openai-go 3.98.0" {
		t.Errorf("no --sdk: %d attempts (%s), want openai-go's 1", n, sdk)
	}
	file := filepath.Join(t.TempDir(), "drill.yaml")
	if err := os.WriteFile(file, []byte("predict:\n  sdk: node\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if n, sdk := attempts("-f", file); n != 3 || sdk != "openai-node 7.60.0" {
		t.Errorf("predict.sdk node in the drill file: %d attempts (%s), want 3", n, sdk)
	}
	if n, _ := attempts("-f", file, "--sdk", "go"); n != 1 {
		t.Errorf("--sdk go over the file's node: %d attempts, want 1", n)
	}
	_, stderr, code := execute(t.Context(), "predict", "--sdk", "ruby")
	if code != 2 || !strings.Contains(stderr, "valid: go, node, python") {
		t.Errorf("--sdk ruby: exit %d, stderr %q", code, stderr)
	}
	if err := os.WriteFile(file, []byte("predict:\n  sdk: ruby\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := execute(t.Context(), "predict", "-f", file); code != 2 || !strings.Contains(stderr, "predict.sdk") {
		t.Errorf("predict.sdk ruby: exit %d, stderr %q", code, stderr)
	}
}
