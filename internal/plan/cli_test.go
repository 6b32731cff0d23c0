package plan_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/workload"
)

// TestPolicyFlagsOverrideTheFile: a policy flag replaces the file's value
// on every policy of the file and keeps the file's other keys; both go
// through the same checks.
func TestPolicyFlagsOverrideTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.yaml")
	src := "policies:\n  - preset: breaker\n    probes: 2\n    stale: count\n  - {preset: fail-fast, trip: [count, in-flight], in_flight_age: 2s}\n"
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	var f plan.CLI
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	f.Register(fs)
	f.RegisterFile(fs)
	if err := fs.Parse([]string{"-f", path, "--probes", "all", "--hedge-after", "3s"}); err != nil {
		t.Fatal(err)
	}
	cfgs, _, err := f.Plan(fs, plan.Selection{OutagesFlag: "outages", PoliciesFlag: "policies"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfgs) != 2 {
		t.Fatalf("%d runs, want 2", len(cfgs))
	}
	for _, c := range cfgs {
		b := c.Policy.Primary.Breaker
		if b.Probes != breaker.ProbesAll || c.Policy.HedgeAfter != 3*time.Second {
			t.Errorf("%s: probes %v, hedge after %s: the flags did not override", c.Policy.Name, b.Probes, c.Policy.HedgeAfter)
		}
	}
	if cfgs[0].Policy.Primary.Breaker.Stale != "count" || cfgs[1].Policy.Primary.Breaker.Trip.InFlightAge != 2*time.Second {
		t.Errorf("the file's own keys were lost: %+v / %+v", cfgs[0].Policy.Primary.Breaker, cfgs[1].Policy.Primary.Breaker.Trip)
	}
	if err := fs.Set("stale", "keep"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.Plan(fs, plan.Selection{OutagesFlag: "outages", PoliciesFlag: "policies"}, nil); err == nil || !strings.Contains(err.Error(), `stale: unknown value "keep" (valid: drop, count)`) {
		t.Errorf("a bad flag value on a file: %v", err)
	}
}

// TestPolicyFlagsReachTheConfig: every flag lands in the policy (and so in
// the journal header, which records the whole config).
func TestPolicyFlagsReachTheConfig(t *testing.T) {
	var f plan.CLI
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	f.Register(fs)
	args := []string{"--trip", "count,in-flight,p99", "--in-flight-age", "4s", "--in-flight-calls", "2",
		"--trip-p99", "6s", "--trip-min-samples", "8", "--probes", "all", "--probe", "synthetic", "--probe-interval", "2s",
		"--stale", "count", "--retry-after", "honour", "--count-429", "--count-invalid", "--breaker-scope", "endpoint",
		"--email-deadline", "20s", "--hedge-after", "3s", "--rules", "--primary-max-retry-delay", "10s",
		"--min-tokens-per-s", "15", "--stream-check", "3s", "--count-slow-stream"}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	cfg, err := f.Config(fs, "hang", "breaker")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(cfg.Policy)
	for _, want := range []string{`"rules":["count","in-flight","p99"]`, `"in_flight_age_ns":4000000000`, `"in_flight_calls":2`,
		`"p99_ns":6000000000`, `"min_samples":8`, `"probes":"all"`, `"probe":"synthetic"`, `"probe_interval_ns":2000000000`,
		`"stale":"count"`, `"retry_after":"honour"`, `"count_429":true`, `"count_invalid":true`, `"scope":"endpoint"`,
		`"min_tokens_per_s":15`, `"stream_check_ns":3000000000`, `"count_slow_stream":true`,
		`"email_deadline_ns":20000000000`, `"hedge_after_ns":3000000000`, `"rules":true`, `"max_retry_delay_ns":10000000000`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("policy JSON lacks %s:\n%s", want, raw)
		}
	}
	var back workload.Policy
	if err := json.Unmarshal(raw, &back); err != nil || back.Primary.Breaker.Probes != breaker.ProbesAll {
		t.Fatalf("policy does not read back: %v, probes %v", err, back.Primary.Breaker.Probes)
	}
	opts := strings.Join(cfg.Policy.Options(), ", ")
	for _, want := range []string{"in-flight age 4s", "probes all", "probe synthetic", "stale count", "hedge after 3s", "rules rung", "stream floor 15 tokens/s after 3s", "count slow stream"} {
		if !strings.Contains(opts, want) {
			t.Errorf("header options %q lack %q", opts, want)
		}
	}
	if got := strings.Join(cfg.Info().Options, ", "); got != opts {
		t.Errorf("run_start options %q, want the header's %q", got, opts)
	}
	if cfg.Info().TimeLimitScope != "attempt+email" {
		t.Errorf("time_limit_scope %q, want attempt+email", cfg.Info().TimeLimitScope)
	}
}

// TestEveryOverrideIsAFlag: each drill-file override key is a flag of
// drill run, read into its override when given.
func TestEveryOverrideIsAFlag(t *testing.T) {
	var f plan.CLI
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	f.Register(fs)
	values := map[string]string{"time_limit_scope": "request", "trip": "count,p99", "probes": "all", "probe": "synthetic",
		"stale": "count", "retry_after": "honour", "scope": "endpoint", "trip_failure_rate": "0.5", "trip_slow_rate": "0.5",
		"min_tokens_per_s": "15"}
	var args []string
	for _, key := range drillfile.OverrideKeys() {
		name := drillfile.FlagName(key)
		fl := fs.Lookup(name)
		if fl == nil {
			t.Errorf("override %s has no flag --%s", key, name)
			continue
		}
		v, ok := values[key]
		switch {
		case ok:
		case fl.Value.Type() == "bool":
			v = "true"
		case fl.Value.Type() == "duration":
			v = "3s"
		default:
			v = "2"
		}
		args = append(args, "--"+name+"="+v)
	}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	o := plan.FlagOverrides(fs)
	if got, want := len(o.Set()), len(drillfile.OverrideKeys()); got != want {
		t.Errorf("%d of %d overrides read from flags: %v", got, want, o.Set())
	}
	if !strings.Contains(strings.Join(o.Set(), ", "), "scope endpoint") {
		t.Errorf("--breaker-scope not read into scope: %v", o.Set())
	}
}
