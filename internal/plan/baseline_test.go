package plan_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/workload"
)

// baselineOf plans a drill from args (and a drill file's src, if any) and
// returns its baseline.
func baselineOf(t *testing.T, src string, args ...string) (string, error) {
	t.Helper()
	var f plan.CLI
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	f.Register(fs)
	f.RegisterFile(fs)
	f.RegisterBaseline(fs)
	if src != "" {
		path := filepath.Join(t.TempDir(), "d.yaml")
		if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, "-f", path)
	}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.Plan(fs, plan.Selection{Outages: []string{"busy"}, Policies: []string{"breaker"}, OutagesFlag: "outage", PoliciesFlag: "policy"}, nil); err != nil {
		t.Fatal(err)
	}
	return f.Baseline(fs)
}

// TestBaselineFlagAndFileKey: the default is no-breakers, the drill file's
// key sets it, the flag overrides the file, and a typo is a usage error
// with a suggestion.
func TestBaselineFlagAndFileKey(t *testing.T) {
	for _, c := range []struct {
		name, src string
		args      []string
		want      string
	}{
		{"default", "", nil, plan.BaselineNoBreakers},
		{"flag", "", []string{"--baseline", "none"}, plan.BaselineNone},
		{"file", "baseline: fallback\n", nil, "fallback"},
		{"flag over file", "baseline: fallback\n", []string{"--baseline", "primary-only"}, "primary-only"},
	} {
		got, err := baselineOf(t, c.src, c.args...)
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	if _, err := baselineOf(t, "", "--baseline", "no-breaker"); err == nil || !strings.Contains(err.Error(), "did you mean no-breakers?") {
		t.Errorf("a typo: %v, want a suggestion", err)
	}
}

// TestBaselineConfigTakesTheBreakersOut: the default baseline is the same
// drill and chain without breakers; a preset replaces the policy only.
func TestBaselineConfigTakesTheBreakersOut(t *testing.T) {
	cfg := workload.DefaultConfig()
	cfg.Policy.Primary.TimeLimit = 7e9
	backup := *cfg.Policy.Backup
	cfg.Policy.Backup = &backup
	cfg.Policy.Backup.Breaker = cfg.Policy.Primary.Breaker
	b, err := plan.BaselineConfig(cfg, plan.BaselineNoBreakers)
	if err != nil {
		t.Fatal(err)
	}
	if b.Policy.Primary.Breaker != nil || b.Policy.Backup.Breaker != nil || b.Policy.Primary.TimeLimit != 7e9 || b.Seed != cfg.Seed || b.Outage != cfg.Outage {
		t.Errorf("baseline policy %+v: want the same chain and drill without breakers", b.Policy)
	}
	if cfg.Policy.Backup.Breaker == nil || cfg.Policy.Primary.Breaker == nil {
		t.Error("taking the baseline's breakers out changed the live drill's")
	}
	routed := cfg
	routed.Routes = []workload.Route{{Class: "safety", Policy: cfg.Policy}}
	r, err := plan.BaselineConfig(routed, plan.BaselineNoBreakers)
	if err != nil || r.Routes[0].Policy.Primary.Breaker != nil || r.Routes[0].Policy.Backup.Breaker != nil {
		t.Errorf("baseline route policy %+v, %v: want the route's chain without breakers", r.Routes[0].Policy, err)
	}
	if routed.Routes[0].Policy.Primary.Breaker == nil {
		t.Error("taking the baseline's breakers out changed the live drill's routes")
	}
	p, err := plan.BaselineConfig(cfg, "fail-fast")
	if err != nil || p.Policy.Name != "fail-fast" || p.Policy.Primary.Breaker == nil {
		t.Errorf("preset baseline %+v, %v; want fail-fast's policy", p.Policy, err)
	}
}
