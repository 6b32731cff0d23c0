package plan

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/workload"
)

func TestEmptyFileIsTheDefaultDrill(t *testing.T) {
	for _, src := range []string{"", "# nothing yet\n"} {
		f, err := drillfile.Parse("d.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		runs, err := Runs(f)
		if err != nil {
			t.Fatal(err)
		}
		want := workload.DefaultConfig()
		want.Outage = workload.OutageNone
		if len(runs) != 1 || runs[0].Config.Policy.Name != want.Policy.Name || runs[0].Config.Outage != workload.OutageNone ||
			runs[0].Config.Emails != want.Emails || runs[0].Config.Follow != 35 {
			t.Errorf("runs %+v, want the default drill without an outage", runs)
		}
	}
}

func TestPlanCrossesOutagesAndPolicies(t *testing.T) {
	src := `
workload: {emails: 20, rate: 4, seed: 7}
models:
  primary: {model: gpt-5.4-nano}
outages:
  - {kind: busy, from: 2s, to: 4s}
  - {kind: hang, from: 1s, to: 3s, models: [backup]}
policies:
  - preset: breaker
    name: quick-breaker
    trip_failures: 2
    trip_window: 3s
    cooldown: 1s
    primary_timeout: 2s
    backup_retries: 0
    time_limit_scope: request
  - name: own
    backup: true
    canned: true
`
	f, err := drillfile.Parse("d.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := Runs(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 4 {
		t.Fatalf("%d runs, want 2 outages × 2 policies", len(runs))
	}
	c := runs[0].Config
	if c.Emails != 20 || c.Rate != 4 || c.Seed != 7 || c.Follow != 0 || c.PrimaryModel != "gpt-5.4-nano" {
		t.Errorf("workload not applied: %+v", c)
	}
	if c.Outage != "busy" || c.OutageFrom != 2*time.Second || c.OutageTo != 4*time.Second || c.Target != event.ServedPrimary {
		t.Errorf("outage %s %s–%s on %s", c.Outage, c.OutageFrom, c.OutageTo, c.Target)
	}
	p := c.Policy
	if p.Name != "quick-breaker" || p.Scope != chain.ScopeRequest || p.Primary.TimeLimit != 2*time.Second ||
		p.Primary.Breaker.Trip.Failures != 2 || p.Primary.Breaker.Trip.Window != 3*time.Second ||
		p.Primary.Breaker.Cooldown != time.Second || p.Backup.Retries != 0 || !p.Canned {
		t.Errorf("policy overrides not applied: %+v %+v %+v", p, p.Primary.Breaker, p.Backup)
	}
	if def, _ := workload.Preset("breaker"); def.Primary.Breaker.Trip.Failures != 0 || def.Primary.Breaker.Cooldown != 0 {
		t.Errorf("an override leaked into the preset's default breaker: %+v", def.Primary.Breaker)
	}
	own := runs[1].Config.Policy
	if own.Name != "own" || own.Primary.Breaker != nil || own.Backup == nil || !own.Canned || own.Primary.TimeLimit != 5*time.Second {
		t.Errorf("policy written in full: %+v", own)
	}
	if runs[2].Config.Outage != "hang" || runs[2].Config.Target != event.ServedBackup {
		t.Errorf("second outage: %s on %s, want hang on backup", runs[2].Config.Outage, runs[2].Config.Target)
	}
}

// TestWindowThroughInjector: a window's modifiers and parameters reach the
// injector's window, parameters through the fault's own parser.
func TestWindowThroughInjector(t *testing.T) {
	f, err := drillfile.Parse("d.yaml", []byte("outages:\n  - {kind: rate-limit, from: 1s, to: 9s, rate: 0.3, ramp: true, flap: {on: 1s, off: 2s}, models: [primary, backup], params: {retry_after: 20s}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := Runs(f)
	if err != nil {
		t.Fatal(err)
	}
	c := runs[0].Config
	if len(c.Outages) != 1 || c.Outage != "rate-limit" || c.OutageFrom != time.Second || c.OutageTo != 9*time.Second {
		t.Fatalf("config outage %s %s–%s, windows %+v", c.Outage, c.OutageFrom, c.OutageTo, c.Outages)
	}
	w := c.Outages[0]
	if w.Kind != "rate-limit" || w.Rate != 0.3 || !w.Ramp || w.Flap == nil || w.Flap.On != time.Second || w.Flap.Off != 2*time.Second ||
		len(w.Models) != 2 || w.Params["retry_after"] != "20s" {
		t.Errorf("injector window %+v (flap %+v)", w, w.Flap)
	}
}

// TestPerRungEndpoints: each rung has its own endpoint and key variable;
// a rung left on the fake model keeps it, and both shared make one Endpoint.
func TestPerRungEndpoints(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("DRILL_TEST_BACKUP_KEY", "  backup-key-123  ")
	f, err := drillfile.Parse("d.yaml", []byte(`models:
  primary: {base_url: http://127.0.0.1:1/v1, model: a}
  backup: {base_url: http://127.0.0.1:2/v1, model: b, api_key_env: DRILL_TEST_BACKUP_KEY}
prices: {a: 1/2, b: "0.5/4"}
`))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := Runs(f)
	if err != nil {
		t.Fatal(err)
	}
	c := runs[0].Config
	p, b := c.RungEndpoint("primary"), c.RungEndpoint("backup")
	if p.BaseURL != "http://127.0.0.1:1/v1" || p.KeyEnv != "OPENAI_API_KEY" || b.BaseURL != "http://127.0.0.1:2/v1" ||
		b.APIKey != "backup-key-123" || b.KeyEnv != "DRILL_TEST_BACKUP_KEY" {
		t.Errorf("endpoints primary %+v backup %+v", p, b)
	}
	if c.Prices["b"].OutPerM != 4 || c.Prices["a"].InPerM != 1 {
		t.Errorf("prices %+v", c.Prices)
	}

	// A key variable named on purpose but blank is an error naming the rung.
	t.Setenv("DRILL_TEST_BACKUP_KEY", "   ")
	if _, err := Runs(f); err == nil || !strings.Contains(err.Error(), "backup") || !strings.Contains(err.Error(), "DRILL_TEST_BACKUP_KEY is not set") {
		t.Errorf("blank key: error %v", err)
	}

	// Without base_url, OPENAI_BASE_URL names the endpoint, as the SDK reads it.
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:3/v1")
	g, err := drillfile.Parse("d.yaml", []byte("models:\n  backup: {base_url: fake}\n"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err = Runs(g)
	if err != nil {
		t.Fatal(err)
	}
	c = runs[0].Config
	if c.RungEndpoint("primary").BaseURL != "http://127.0.0.1:3/v1" || c.RungEndpoint("backup").BaseURL != "" {
		t.Errorf("OPENAI_BASE_URL: primary %+v backup %+v", c.RungEndpoint("primary"), c.RungEndpoint("backup"))
	}
}

// TestWindowsGroupByName: windows sharing a name are one outage.
func TestWindowsGroupByName(t *testing.T) {
	f, err := drillfile.Parse("d.yaml", []byte(`outages:
  - {name: incident, kind: busy, from: 10s, to: 20s}
  - {kind: hang, from: 5s, to: 8s}
  - {name: incident, kind: slow, from: 20s, to: 30s}
`))
	if err != nil {
		t.Fatal(err)
	}
	sc := f.Scenarios()
	if len(sc) != 2 || sc[0].Name != "incident" || len(sc[0].Windows) != 2 || sc[1].Name != "hang" {
		t.Errorf("scenarios %+v", sc)
	}
	c, err := Config(f, sc[0], f.PolicyList()[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Outages) != 2 || c.Outage != "busy" || c.OutageFrom != 10*time.Second || c.OutageTo != 30*time.Second {
		t.Errorf("two windows in one run: %s %s–%s, %d windows; want busy over 10s–30s, 2 windows", c.Outage, c.OutageFrom, c.OutageTo, len(c.Outages))
	}
}

func TestTemplateIsAValidDrill(t *testing.T) {
	f, err := drillfile.Parse("template.yaml", drillfile.Template)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := Runs(f)
	if err != nil {
		t.Fatal(err)
	}
	// No live abort conditions: the file drill init writes runs on both
	// clocks, and --clock virtual refuses them (its example ones are
	// commented out, and must still parse once uncommented).
	if len(runs) != 2 || len(f.Hypotheses) == 0 || len(f.Abort) != 0 {
		t.Errorf("template plays %d runs with %d hypotheses and %d abort conditions; want 2, some, none", len(runs), len(f.Hypotheses), len(f.Abort))
	}
	uncommented := strings.NewReplacer("# abort:", "abort:", "#   - ", "  - ").Replace(string(drillfile.Template))
	g, err := drillfile.Parse("template.yaml", []byte(uncommented))
	if err != nil {
		t.Fatalf("the template's abort conditions, uncommented: %v", err)
	}
	if len(g.Abort) == 0 {
		t.Error("the template has no commented abort conditions to uncomment")
	}
}

func TestTimeline(t *testing.T) {
	f, err := drillfile.Parse("d.yaml", []byte(`workload: {emails: 40, rate: 1}
outages:
  - {kind: busy, from: 10s, to: 20s, flap: {on: 2s, off: 3s}}
  - {kind: hang, from: 0s, to: 39s, rate: 0.3, ramp: true, models: [backup]}
hypotheses: [served.error == 0]
abort: [canned_share > 0.5]
`))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteTimeline(&b, f); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"workload: 40 emails at 1/s (the last sent at 39s)",
		"runs:     2 outages × 1 policy = 2 runs",
		// 60 columns over 39 s, 0.65 s each: on 10–12 s (columns 15–17)
		// and 15–17 s (23–25), off 12–15 s and after 20 s.
		"  ...............###.....###..................................\n",
		"10s–20s  busy on primary, flapping 2s on / 3s off",
		"0s–39s  hang on backup, hitting 0% of attempts rising to 30% at 39s",
		"  ++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++\n",
		"hypotheses (checked at the end):\n  served.error == 0",
		"abort as soon as:\n  canned_share > 0.5",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("timeline lacks %q:\n%s", want, out)
		}
	}
}

// TestEveryPolicyOptionInAFile: each breaker and chain option is a
// drill-file key that reaches the engine's policy.
func TestEveryPolicyOptionInAFile(t *testing.T) {
	src := `policies:
  - preset: breaker
    trip: [count, in-flight, p99]
    trip_min_samples: 8
    trip_failure_rate: 0.4
    trip_slow_call: 3s
    trip_slow_rate: 0.6
    trip_p99: 6s
    in_flight_age: 4s
    in_flight_calls: 2
    probes: all
    probe: synthetic
    probe_interval: 2s
    probe_timeout: 20s
    stale: count
    retry_after: honour
    count_429: true
    count_invalid: true
    count_slow_stream: true
    scope: endpoint
    min_tokens_per_s: 15
    stream_check: 3s
    email_deadline: 20s
    hedge_after: 3s
    rules: true
    primary_max_retry_delay: 10s
  - {preset: breaker, name: two-probes, probes: 2}
`
	f, err := drillfile.Parse("d.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := f.Policies[0].Build()
	if err != nil {
		t.Fatal(err)
	}
	b := p.Primary.Breaker
	tr := b.Trip
	if strings.Join(tr.Rules, ",") != "count,in-flight,p99" || tr.MinSamples != 8 || tr.FailureRate != 0.4 ||
		tr.SlowCall != 3*time.Second || tr.SlowRate != 0.6 || tr.P99 != 6*time.Second ||
		tr.InFlightAge != 4*time.Second || tr.InFlightCalls != 2 {
		t.Errorf("trip %+v", tr)
	}
	if b.Probes != breaker.ProbesAll || b.Probe != breaker.ProbeSynthetic || b.ProbeInterval != 2*time.Second ||
		b.ProbeTimeout != 20*time.Second || b.Stale != "count" || b.RetryAfter != breaker.RetryAfterHonour ||
		!b.Count429 || !b.CountInvalid || !b.CountSlowStream || b.Scope != breaker.ScopeEndpoint {
		t.Errorf("breaker %+v", b)
	}
	if p.Primary.MinTokensPerS != 15 || p.Primary.Check != 3*time.Second || p.Primary.MaxRetryDelay != 10*time.Second ||
		p.EmailDeadline != 20*time.Second || p.HedgeAfter != 3*time.Second || !p.Rules {
		t.Errorf("policy %+v", p)
	}
	if p2, err := f.Policies[1].Build(); err != nil || p2.Primary.Breaker.Probes != 2 {
		t.Errorf("probes: 2 gave %v, %v", p2.Primary.Breaker, err)
	}
	if _, err := Runs(f); err != nil {
		t.Errorf("plan: %v", err)
	}
	// Every key of Overrides is in this file: a new option must be added here.
	older := []string{"time_limit_scope", "primary_timeout", "primary_retries", "backup_timeout", "backup_retries", "trip_failures", "trip_window", "cooldown"}
	for _, k := range drillfile.OverrideKeys() {
		if !strings.Contains(src, " "+k+":") && !slices.Contains(older, k) {
			t.Errorf("key %s is not exercised", k)
		}
	}
}

// TestFleetReplicasReachTheInjector: a window's replicas reach the
// injector's window.
func TestFleetReplicasReachTheInjector(t *testing.T) {
	f, err := drillfile.Parse("d.yaml", []byte("fleet:\n  replicas: 4\n  routing: random\n  breaker_store: redis://127.0.0.1:6379/0\noutages:\n  - {kind: busy, from: 1s, to: 9s, replicas: [3]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := Runs(f)
	if err != nil {
		t.Fatal(err)
	}
	if ws := runs[0].Config.Windows(); len(ws) != 1 || len(ws[0].Replicas) != 1 || ws[0].Replicas[0] != 3 {
		t.Fatalf("windows %+v, want one naming replica 3", ws)
	}
}
