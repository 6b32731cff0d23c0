package plan_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/workload"
)

// planWith plans a drill file (src; none when "") with args.
func planWith(t *testing.T, src string, args ...string) ([]workload.Config, error) {
	t.Helper()
	if src != "" {
		path := filepath.Join(t.TempDir(), "d.yaml")
		if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append([]string{"-f", path}, args...)
	}
	var c plan.CLI
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	c.Register(fs)
	c.RegisterFile(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	sel := plan.Selection{Outages: []string{"busy"}, Policies: []string{"fail-fast"}, OutagesFlag: "outages", PoliciesFlag: "policies"}
	cfgs, _, err := c.Plan(fs, sel, nil)
	return cfgs, err
}

// TestRouteFlagsOverTheFile: --route replaces a file route's policy and
// backup, adds a built-in class after the file's, and the policy flags
// reach every route's policy.
func TestRouteFlagsOverTheFile(t *testing.T) {
	src := "policies: [{preset: fail-fast}]\nroutes:\n  - {class: vip, match: {keywords: [vip]}, policy: breaker, backup: \"never, wait-for-primary\", wait: 9s}\n"
	cfgs, err := planWith(t, src, "--route", "vip=fail-fast,never,person", "--route", "safety=fail-fast", "--primary-timeout", "2s")
	if err != nil {
		t.Fatal(err)
	}
	rs := cfgs[0].Routes
	if len(rs) != 2 || rs[0].Class != "vip" || rs[0].Hold != event.HoldPerson || rs[0].Wait != 0 || rs[0].Policy.Name != "fail-fast" ||
		rs[1].Class != "safety" || rs[1].Hold != "" {
		t.Fatalf("routes: %+v", rs)
	}
	for _, r := range append(rs, workload.Route{Class: "default", Policy: cfgs[0].Policy}) {
		if r.Policy.Primary.TimeLimit != 2*time.Second {
			t.Errorf("route %s: primary time limit %s, want the flag's 2s", r.Class, r.Policy.Primary.TimeLimit)
		}
	}
	if _, err := planWith(t, src, "--route", "nobody=fail-fast"); err == nil || !strings.Contains(err.Error(), `routes no class "nobody"`) {
		t.Errorf("an unknown class: %v", err)
	}
}

// TestRouteFlagsWithoutAFile: built-in classes on presets, with the policy
// flags.
func TestRouteFlagsWithoutAFile(t *testing.T) {
	cfgs, err := planWith(t, "", "--route", "safety=breaker,never,wait-for-primary", "--cooldown", "7s")
	if err != nil {
		t.Fatal(err)
	}
	r := cfgs[0].Routes
	if len(r) != 1 || r[0].Hold != event.HoldWaitForPrimary || r[0].Policy.Primary.Breaker == nil || r[0].Policy.Primary.Breaker.Cooldown != 7*time.Second {
		t.Fatalf("routes: %+v", r)
	}
}
