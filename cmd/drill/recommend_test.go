package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// TestRecommendPickKeepsTheNormalDay: every class's setting that `drill
// recommend --within 2.5s` prints, played by drill run with no outage (no
// routes: every email on that setting), sends at most 5 % of the emails to
// the backup.
func TestRecommendPickKeepsTheNormalDay(t *testing.T) {
	t.Parallel() // CPU only, no timing bound: runs beside the others
	out, errOut, code := execute(t.Context(), "recommend", "--within", "2.5s", "--json")
	if code > 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Classes []struct{ Class, Flags string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Classes) == 0 {
		t.Fatalf("%v: %s", err, out)
	}
	played := map[string]bool{}
	for _, c := range res.Classes {
		if played[c.Flags] {
			continue
		}
		played[c.Flags] = true
		args := append([]string{"run", "--clock", "virtual", "--no-tui", "--outage", "none", "--json"}, strings.Fields(c.Flags)...)
		out, errOut, code := execute(t.Context(), args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.Flags, code, errOut)
		}
		var s scoring.Summary
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if share := float64(s.Served.Backup) / float64(s.EmailsSent); s.EmailsSent == 0 || share > 0.05 {
			t.Errorf("class %s's pick %s sends %d of %d emails to the backup with no outage", c.Class, c.Flags, s.Served.Backup, s.EmailsSent)
		}
	}
}

// TestRecommendBadBoundsExitTwo: bounds that are not numbers a bound can
// be are usage errors before any drill runs, from flags and from a drill
// file's recommend: section (with its line).
func TestRecommendBadBoundsExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{"--within", "5s", "--min-all4-right", "NaN"},
		{"--within", "5s", "--min-all4-right", "1.5"},
		{"--within", "5s", "--normal-max-fallback", "NaN"},
		{"--within", "5s", "--normal-max-fallback", "120%"},
		{"--within", "5s", "--normal-min-all4-right", "Inf"},
		{"--within", "5s", "--normal-min-all4-right", "best"},
		{"--within", "5s", "--outages", "none"},
		{"--within", "5s", "--repeat", "0"},
		{"--within", "5s", "--max-parallel", "-1"},
	} {
		_, errOut, code := execute(t.Context(), append([]string{"recommend"}, args...)...)
		if code != 2 || strings.Contains(errOut, "drills in virtual time") {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
	path := filepath.Join(t.TempDir(), "bounds.yaml")
	body := "recommend:\n  normal_max_fallback: NaN\n  min_all4_right: 1.5\nroutes:\n  - {class: returns, match: {intent: [return]}, policy: breaker}\n"
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := execute(t.Context(), "recommend", "-f", path)
	for _, want := range []string{path + ":2:24: normal_max_fallback", path + ":3:19: min_all4_right"} {
		if code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("exit %d, no %q in %s", code, want, errOut)
		}
	}
}
