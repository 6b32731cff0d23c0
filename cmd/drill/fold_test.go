package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

func TestReplayDirectoryIsUsageError(t *testing.T) {
	_, stderr, code := execute(t.Context(), "replay", t.TempDir(), "--no-tui")
	if code != 2 || !strings.Contains(stderr, "directory") {
		t.Errorf("exit %d, stderr %q; want 2 and a word about the directory", code, stderr)
	}
}

// TestRecordRefusesToOverwrite: --record never overwrites a journal
// unless --force is given.
func TestRecordRefusesToOverwrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(path, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--no-tui", "--json", "--outage", "none", "--emails", "2", "--rate", "50", "--record", path}
	_, stderr, code := execute(t.Context(), args...)
	if code != 2 || !strings.Contains(stderr, "--force") {
		t.Errorf("exit %d, stderr %q; want 2 and a pointer to --force", code, stderr)
	}
	if b, _ := os.ReadFile(path); string(b) != "keep me\n" {
		t.Errorf("the existing file was changed: %q", b)
	}
	if _, stderr, code := execute(t.Context(), append(args, "--force")...); code != 0 {
		t.Fatalf("with --force: exit %d, %s", code, stderr)
	}
	if _, err := journal.ReadFile(path); err != nil {
		t.Errorf("with --force the journal was not written: %v", err)
	}
}

// TestShortDrillWarns: --emails 10 with the default --follow 35 says it
// follows no email, and a drill whose outage starts after its last email
// says it may end before the outage starts, and that it did.
func TestShortDrillWarns(t *testing.T) {
	stdout, stderr, code := execute(t.Context(), "run", "--no-tui", "--emails", "10", "--rate", "20", "--outage-from", "15s", "--outage-to", "40s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"does not reach email 35", "may end before its outage starts", "before its busy outage started"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stdout, "email 0") {
		t.Errorf("the table follows email 0:\n%s", stdout)
	}
}

// TestDefaultWindowFollowsTheSending: with no window flags, a drill that
// sends its emails in under a minute has its outage a quarter to two
// thirds of the way through the sending, says so, and meets it; --outage-
// from keeps the window the user gave.
func TestDefaultWindowFollowsTheSending(t *testing.T) {
	t.Parallel() // CPU only, no timing bound: runs beside the others
	stdout, stderr, code := execute(t.Context(), "run", "--no-tui", "--json", "--clock", "virtual", "--outage", "hang", "--rate", "10", "--policy", "fallback")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "120 emails sent at 10 a second take 12s: the outage runs 3s–8s") {
		t.Errorf("stderr does not say where the outage went:\n%s", stderr)
	}
	var sum scoring.Summary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.CallsToBrokenOutage == 0 {
		t.Errorf("no call met the hang: %+v", sum)
	}
	_, stderr, code = execute(t.Context(), "run", "--no-tui", "--clock", "virtual", "--emails", "20", "--rate", "10", "--outage-from", "1s", "--outage-to", "30s")
	if code != 0 || strings.Contains(stderr, "the outage runs") {
		t.Errorf("with --outage-from given: exit %d, stderr %q", code, stderr)
	}
	// One end given: the other is the default window's, so the outage ends
	// (or starts) inside the sending, not at the chapter's 40 s (or 15 s).
	for _, c := range []struct {
		flag, value, says string
		from, to          float64
	}{
		{"--outage-from", "5s", "the outage runs 5s–8s, ending two thirds", 5, 8},
		{"--outage-to", "6s", "the outage runs 3s–6s, starting a quarter", 3, 6},
	} {
		stdout, stderr, code := execute(t.Context(), "run", "--no-tui", "--json", "--clock", "virtual", "--rate", "10", c.flag, c.value)
		if code != 0 || !strings.Contains(stderr, c.says) {
			t.Errorf("%s %s: exit %d, stderr does not say %q:\n%s", c.flag, c.value, code, c.says, stderr)
			continue
		}
		var sum scoring.Summary
		if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
			t.Fatal(err)
		}
		if len(sum.OutageWindows) != 1 || sum.OutageWindows[0].EndS == nil ||
			sum.OutageWindows[0].StartS != c.from || *sum.OutageWindows[0].EndS != c.to {
			t.Errorf("%s %s: outage windows %+v, want %gs–%gs", c.flag, c.value, sum.OutageWindows, c.from, c.to)
		}
	}
	// An end the default window cannot pair with keeps the chapter's other end.
	_, stderr, code = execute(t.Context(), "run", "--no-tui", "--json", "--clock", "virtual", "--rate", "10", "--outage-from", "10s")
	if code != 0 || strings.Contains(stderr, "the outage runs") {
		t.Errorf("--outage-from 10s past the default window's end: exit %d, stderr %q", code, stderr)
	}
}

// TestCompareJSONHasOverrides: compare --json says what each run was run with.
func TestCompareJSONHasOverrides(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	stdout, stderr, code := execute(ctx, "compare", "--json", "--outages", "busy", "--policies", "breaker,fail-fast",
		"--emails", "4", "--rate", "20", "--outage-from", "0s", "--outage-to", "1s", "--primary-timeout", "2s", "--seed", "7")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sums []scoring.Summary
	if err := json.Unmarshal([]byte(stdout), &sums); err != nil {
		t.Fatalf("not a JSON array of summaries: %v\n%s", err, stdout)
	}
	if len(sums) != 2 {
		t.Fatalf("%d summaries, want 2", len(sums))
	}
	for _, s := range sums {
		if s.Overrides["primary-timeout"] != "2s" || s.Overrides["seed"] != "7" || s.Overrides["emails"] != "4" || s.Seed != 7 {
			t.Errorf("%s: overrides %v, seed %d", s.Policy, s.Overrides, s.Seed)
		}
		if s.PolicySettings.Rungs[0].TimeLimitS != 2 || s.PolicySettings.Rungs[0].Breaker == nil {
			t.Errorf("%s: policy settings %+v", s.Policy, s.PolicySettings)
		}
	}
}

// TestDefaultModelsAreTheFakeModels: the engine's default model names are
// the ones the built-in fake model serves.
func TestDefaultModelsAreTheFakeModels(t *testing.T) {
	d := workload.DefaultConfig()
	if got, want := []string{d.PrimaryModel, d.BackupModel}, fakemodel.Models(); !slices.Equal(got, want) {
		t.Errorf("default models %v, the fake model serves %v", got, want)
	}
}
