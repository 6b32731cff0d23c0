package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

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
		stdout, stderr, code := execute(t.Context(), "run", "-f", path, "--json", "--expect", "answered == 6")
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
		{"unknown figure", []string{"run", "--expect", "servd.error == 0"}, []string{`unknown figure "servd.error"`, "served.error", "canned_share"}},
		{"unknown operator", []string{"compare", "--expect", "served.error =< 0"}, []string{"unknown operator", "== != < <= > >="}},
		{"missing file", []string{"run", "-f", "/nonexistent/drill.yaml"}, []string{"no such file"}},
		{"unknown outage", []string{"run", "-f", writeDrill(t, smallDrill), "--outage", "nope"}, []string{`has no outage "nope" (it has: busy)`}},
		{"flag out of range", []string{"run", "-f", writeDrill(t, smallDrill), "--emails", "2000000"}, []string{"emails must be between 1 and 1000000"}},
		{"not playable yet", []string{"validate", "../../examples/rate-limit-storm.yaml"}, []string{"outage rate-limit", "not supported by this build"}},
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
	for _, want := range []string{"runs:     1 outage × 2 policies = 2 runs", "15s–40s  busy on primary", "served.error == 0", "canned_share > 0.5"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("validate output lacks %q:\n%s", want, stdout)
		}
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
