package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// writeDrill writes a drill file into a test directory.
func writeDrill(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "drill.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const smallDrill = `workload: {emails: 6, rate: 2}
outages:
  - {kind: busy, from: 1s, to: 30s}
policies:
  - preset: fallback
hypotheses:
  - served.error == 0
  - served.backup == 0
`

// TestRunFileFailingHypothesis: a failed hypothesis exits 1 and names the
// check with its measured value; the JSON summary lists every hypothesis.
func TestRunFileFailingHypothesis(t *testing.T) {
	path := writeDrill(t, smallDrill)
	synctest.Test(t, func(t *testing.T) {
		rec := filepath.Join(filepath.Dir(path), "run.jsonl")
		stdout, stderr, code := execute(t.Context(), "run", "-f", path, "--json", "--expect", "answered == 6", "--record", rec)
		if code != 1 {
			t.Fatalf("exit %d, want 1: %s", code, stderr)
		}
		if !strings.Contains(stderr, "1 of 3 hypotheses failed:\n  served.backup == 0 (measured 4)") {
			t.Errorf("stderr does not say which hypothesis failed and its value:\n%s", stderr)
		}
		var got struct {
			scoring.Summary
			Hypotheses []scoring.Verdict `json:"hypotheses"`
		}
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatalf("summary JSON: %v\n%s", err, stdout)
		}
		want := []scoring.Verdict{
			{Expr: "served.error == 0", Value: 0.0, Pass: true},
			{Expr: "served.backup == 0", Value: 4.0, Pass: false},
			{Expr: "answered == 6", Value: 6.0, Pass: true},
		}
		if len(got.Hypotheses) != 3 || got.Hypotheses[0] != want[0] || got.Hypotheses[1] != want[1] || got.Hypotheses[2] != want[2] {
			t.Errorf("hypotheses %+v, want %+v", got.Hypotheses, want)
		}
		if got.Emails != 6 || got.Policy != "fallback" || !strings.Contains(stdout, `"expr": "served.error == 0"`) {
			t.Errorf("summary %+v", got.Summary)
		}
		j, err := journal.ReadFile(rec)
		if err != nil {
			t.Fatal(err)
		}
		if j.Summary == nil || len(j.Summary.Hypotheses) != 3 || j.Summary.Hypotheses[1] != want[1] {
			t.Errorf("the journal's summary line does not hold the judged hypotheses: %+v", j.Summary)
		}
	})
}

// TestRunFileAllHold: exit 0, and the plain summary starts with the
// PASS/FAIL table. Flags override the file.
func TestRunFileAllHold(t *testing.T) {
	path := writeDrill(t, smallDrill)
	synctest.Test(t, func(t *testing.T) {
		stdout, stderr, code := execute(t.Context(), "run", "-f", path, "--no-tui", "--outage", "none", "--emails", "4", "--policy", "breaker")
		if code != 0 {
			t.Fatalf("exit %d, want 0: %s", code, stderr)
		}
		if !strings.HasPrefix(stdout, "hypothesis          result  measured\nserved.error == 0   PASS    0\nserved.backup == 0  PASS    0\n") {
			t.Errorf("summary does not start with the hypotheses table:\n%s", stdout)
		}
		if !strings.Contains(stdout, "policy  ") || !strings.Contains(stdout, "breaker") || !strings.Contains(stdout, "of 4") {
			t.Errorf("flags did not override the file:\n%s", stdout)
		}
	})
}

// TestAbortExitsThree: an abort condition stops the drill, exit 3.
func TestAbortExitsThree(t *testing.T) {
	path := writeDrill(t, `workload: {emails: 40, rate: 4}
outages: [{kind: busy, from: 0s, to: 30s}]
policies: [{preset: primary-only}]
abort: [served.error >= 2]
`)
	synctest.Test(t, func(t *testing.T) {
		stdout, stderr, code := execute(t.Context(), "run", "-f", path, "--json")
		if code != 3 || !strings.Contains(stderr, "aborted by served.error >= 2 (measured ") {
			t.Fatalf("exit %d, want 3 with the reason: %s", code, stderr)
		}
		var s scoring.Summary
		if err := json.Unmarshal([]byte(stdout), &s); err != nil || s.Served.Total() >= 40 {
			t.Errorf("the partial summary: %v, %+v", err, s.Served)
		}
	})
}

func TestDrillFileUsageErrorsExitTwo(t *testing.T) {
	typo := writeDrill(t, "workload:\n  emails: 10\n  raet: 3\n")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"typo'd key", []string{"run", "-f", typo}, []string{typo + ":3:3: unknown field \"raet\""}},
		{"typo'd key in validate", []string{"validate", typo}, []string{":3:3:"}},
		{"unknown figure", []string{"run", "--expect", "servd.error == 0"}, []string{`unknown figure "servd.error"; did you mean "served.error"?`}},
		{"unknown operator", []string{"compare", "--expect", "served.error =< 0"}, []string{"unknown operator", "== != < <= > >="}},
		{"missing file", []string{"run", "-f", "/nonexistent/drill.yaml"}, []string{"no such file"}},
		{"unknown outage", []string{"run", "-f", writeDrill(t, smallDrill), "--outage", "nope"}, []string{`has no outage "nope" (it has: busy)`}},
		{"flag out of range", []string{"run", "-f", writeDrill(t, smallDrill), "--emails", "2000000"}, []string{"emails must be between 1 and 1000000"}},
		{"rung key variable unset", []string{"validate", writeDrill(t, "models:\n  backup: {base_url: \"http://127.0.0.1:1/v1\", api_key_env: DRILL_TEST_NEVER_SET_KEY}\n")}, []string{"backup", "DRILL_TEST_NEVER_SET_KEY is not set"}},
		{"bad fault param", []string{"run", "-f", writeDrill(t, "outages: [{kind: busy, from: 1s, to: 2s, params: {status: 418}}]\n")}, []string{":1:", "params.status"}},
		{"bad --fault over a file", []string{"run", "-f", writeDrill(t, smallDrill), "--fault", "retry_afer=1s"}, []string{`unknown key "retry_afer" for busy (valid: status,`}},
		{"--fault without an outage", []string{"run", "-f", writeDrill(t, "workload: {emails: 2}\n"), "--fault", "status=502"}, []string{"plays no outage"}},
		{"init twice", []string{"init", typo}, []string{"already exists"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := execute(t.Context(), tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2: %s", code, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
}

func TestInitThenValidate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "monthly.yaml")
	if _, stderr, code := execute(t.Context(), "init", path); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	stdout, stderr, code := execute(t.Context(), "validate", path)
	if code != 0 {
		t.Fatalf("validate: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"runs:     1 outage × 2 policies = 2 runs", "15s–40s  busy on primary", "served.error == 0"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("validate output lacks %q:\n%s", want, stdout)
		}
	}
	// The abort conditions start commented out (the file runs on both
	// clocks); uncommented, validate lists them.
	if strings.Contains(stdout, "canned_share > 0.5") {
		t.Errorf("validate lists the template's commented abort conditions:\n%s", stdout)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	uncommented := strings.NewReplacer("# abort:", "abort:", "#   - ", "  - ").Replace(string(data))
	if err := os.WriteFile(path, []byte(uncommented), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = execute(t.Context(), "validate", path)
	if code != 0 || !strings.Contains(stdout, "canned_share > 0.5") {
		t.Errorf("validate of the uncommented template: exit %d, output lacks %q:\n%s%s", code, "canned_share > 0.5", stdout, stderr)
	}
}

// TestCompareFile: compare -f plays every outage × policy; one run's failed
// hypothesis makes it exit 1.
func TestCompareFile(t *testing.T) {
	path := writeDrill(t, `workload: {emails: 6, rate: 2}
outages:
  - {kind: busy, from: 1s, to: 30s}
  - {kind: hang, from: 1s, to: 30s}
policies: [{preset: primary-only}, {preset: fallback}]
hypotheses: [served.error == 0]
`)
	synctest.Test(t, func(t *testing.T) {
		stdout, stderr, code := execute(t.Context(), "compare", "-f", path, "--json")
		if code != 1 {
			t.Fatalf("exit %d, want 1 (primary-only fails): %s", code, stderr)
		}
		var runs []struct {
			scoring.Summary
			Hypotheses []scoring.Verdict `json:"hypotheses"`
		}
		if err := json.Unmarshal([]byte(stdout), &runs); err != nil || len(runs) != 4 {
			t.Fatalf("%d runs, %v", len(runs), err)
		}
		for _, r := range runs {
			if pass := r.Hypotheses[0].Pass; pass != (r.Policy == "fallback") {
				t.Errorf("%s/%s: served.error == 0 pass %v (errors %d)", r.Outage, r.Policy, pass, r.Served.Error)
			}
		}
	})
}

// TestVirtualClockJudges: --clock virtual judges hypotheses like a real
// run (a failed one exits 1 with its value) and refuses abort conditions,
// which need the live run.
func TestVirtualClockJudges(t *testing.T) {
	path := writeDrill(t, smallDrill)
	stdout, stderr, code := execute(t.Context(), "compare", "-f", path, "--clock", "virtual", "--json")
	if code != 1 || !strings.Contains(stderr, "served.backup == 0 (measured 4)") {
		t.Fatalf("exit %d, want 1 naming the failed hypothesis: %s", code, stderr)
	}
	var runs []struct {
		Hypotheses []scoring.Verdict `json:"hypotheses"`
	}
	if err := json.Unmarshal([]byte(stdout), &runs); err != nil || len(runs) != 1 || len(runs[0].Hypotheses) != 2 {
		t.Errorf("runs %+v (%v)", runs, err)
	}
	if _, stderr, code := execute(t.Context(), "run", "-f", path, "--clock", "virtual", "--no-tui"); code != 1 ||
		!strings.Contains(stderr, "served.backup == 0 (measured 4)") {
		t.Errorf("run --clock virtual: exit %d: %s", code, stderr)
	}
	aborting := writeDrill(t, smallDrill+"abort: [served.error > 3]\n")
	if _, stderr, code := execute(t.Context(), "run", "-f", aborting, "--clock", "virtual"); code != 2 || !strings.Contains(stderr, "--clock real") {
		t.Errorf("abort conditions under --clock virtual: exit %d: %s", code, stderr)
	}
}

// TestValidatePrintsTheJournalsTimeline: drill validate
// --outage-from-journal prints the timeline a drill run journal replays,
// Retry-After included (the engine logs it on attempt_end).
func TestValidatePrintsTheJournalsTimeline(t *testing.T) {
	j := filepath.Join(t.TempDir(), "rl.jsonl")
	if _, stderr, code := execute(t.Context(), "run", "--clock", "virtual", "--no-tui", "--outage", "rate-limit", "--fault", "retry_after=7s",
		"--policy", "fallback", "--emails", "60", "--record", j); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	out, stderr, code := execute(t.Context(), "validate", "--outage-from-journal", j)
	if code != 0 {
		t.Fatalf("validate: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"outage journal", "7.5s–20s  rate-limit on primary (journal), retry_after=7s"} {
		if !strings.Contains(out, want) {
			t.Errorf("validate printed:\n%s\nwant %q", out, want)
		}
	}
	if !strings.Contains(stderr, "replayed window: rate-limit retry_after=7s 7.500s–20.000s") {
		t.Errorf("stderr %q lacks the replayed window", stderr)
	}
	if _, stderr, code := execute(t.Context(), "validate"); code != 2 || !strings.Contains(stderr, "--outage-from-journal") {
		t.Errorf("validate with nothing: exit %d, %q", code, stderr)
	}
}

// TestReplayJSONHasTheHypotheses: drill replay --json prints the
// hypotheses the journal's summary line judged, as drill run --json did.
func TestReplayJSONHasTheHypotheses(t *testing.T) {
	j := filepath.Join(t.TempDir(), "h.jsonl")
	if _, stderr, code := execute(t.Context(), "run", "--clock", "virtual", "--json", "--outage", "busy", "--emails", "40",
		"--expect", "served.error == 0", "--expect", "breaker_opens > 99", "--record", j); code != 1 {
		t.Fatalf("run: exit %d, want 1 (one hypothesis fails): %s", code, stderr)
	}
	out, stderr, code := execute(t.Context(), "replay", "--json", j)
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, stderr)
	}
	var got scoring.Judged
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if len(got.Hypotheses) != 2 || !got.Hypotheses[0].Pass || got.Hypotheses[1].Pass || got.Hypotheses[1].Expr != "breaker_opens > 99" {
		t.Errorf("hypotheses %+v", got.Hypotheses)
	}
	if got.Outage != "busy" || got.Emails != 40 {
		t.Errorf("summary %s/%d", got.Outage, got.Emails)
	}
}

// TestSameKindOutagesAreToldApart: a file's two busy outages, named apart,
// are two rows, two journals and two history groups under their names, and
// the summary keeps the kind in outage and the name in outage_name.
func TestSameKindOutagesAreToldApart(t *testing.T) {
	path := writeDrill(t, `workload: {emails: 12, rate: 4}
outages:
  - {name: short-busy, kind: busy, from: 1s, to: 2s}
  - {name: long-busy, kind: busy, from: 1s, to: 3s}
policies:
  - preset: breaker
`)
	rec := filepath.Join(t.TempDir(), "runs")
	stdout, stderr, code := execute(t.Context(), "compare", "-f", path, "--clock", "virtual", "--json", "--record", rec)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sums []scoring.Summary
	if err := json.Unmarshal([]byte(stdout), &sums); err != nil {
		t.Fatal(err)
	}
	if len(sums) != 2 || sums[0].Outage != "busy" || sums[0].OutageName != "short-busy" || sums[1].OutageName != "long-busy" {
		t.Fatalf("summaries: %+v", sums)
	}
	for _, name := range []string{"01-short-busy-breaker.jsonl", "02-long-busy-breaker.jsonl"} {
		if _, err := os.Stat(filepath.Join(rec, name)); err != nil {
			t.Errorf("journal %s: %v", name, err)
		}
	}
	out, stderr, code := execute(t.Context(), "history", rec)
	if code != 0 || !strings.Contains(out, "short-busy × breaker") || !strings.Contains(out, "long-busy × breaker") {
		t.Errorf("history (exit %d, %s):\n%s", code, stderr, out)
	}
	out, _, _ = execute(t.Context(), "compare", "-f", path, "--clock", "virtual", "--format", "md")
	if !strings.Contains(out, "| short-busy | breaker |") || !strings.Contains(out, "| long-busy | breaker |") {
		t.Errorf("compare table:\n%s", out)
	}
}
