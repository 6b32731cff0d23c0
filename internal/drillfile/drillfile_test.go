package drillfile

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/workload"
)

// TestStrictErrorsNameLineAndColumn: an unknown key, a wrong type, a bad
// duration and the checks after decoding each name the file, line and
// column.
func TestStrictErrorsNameLineAndColumn(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"unknown key", "workload:\n  emails: 10\n  raet: 3\n", "d.yaml:3:3: unknown field \"raet\""},
		{"unknown window key", "outages:\n  - kind: busy\n    from: 1s\n    to: 2s\n    stauts: 503\n", "d.yaml:5:5: unknown field \"stauts\""},
		{"unknown policy key", "policies:\n  - preset: breaker\n    coolduwn: 2s\n", "d.yaml:3:5: unknown field \"coolduwn\""},
		{"wrong type", "workload:\n  emails: lots\n", "d.yaml:2:11: emails: want a whole number, got \"lots\""},
		{"fraction for a count", "workload:\n  emails: 2.5\n", "d.yaml:2:11: emails: want a whole number, got \"2.5\""},
		{"fraction for retries", "policies:\n  - {preset: breaker, trip_failures: 2.5}\n", "d.yaml:2:38: trip_failures: want a whole number, got \"2.5\""},
		{"text for a bool", "workload:\n  stream: maybe\n", "d.yaml:2:11: stream: want true or false, got \"maybe\""},
		{"text for a number", "outages:\n  - {kind: busy, rate: high}\n", "d.yaml:2:24: rate: want a number, got \"high\""},
		{"map for a list", "outages: {kind: busy}\n", "d.yaml:1:10:"},
		{"bad duration", "outages:\n  - {kind: busy, from: 15q, to: 40s}\n", "d.yaml:2:24: from: bad duration \"15q\""},
		{"bare number duration", "outages:\n  - {kind: busy, from: 15, to: 40s}\n", "d.yaml:2:24: from: bad duration \"15\""},
		{"params not a map", "outages:\n  - {kind: busy, from: 1s, to: 2s, params: 3}\n", "d.yaml:2:44: params must be a map"},
		{"syntax", "outages: [\n", "d.yaml:1:10:"},
		{"unknown kind", "outages:\n  - {kind: bussy, from: 1s, to: 2s}\n", "d.yaml:2:12: unknown fault kind \"bussy\" (valid: busy, hang, malformed, rate-limit, reset, slow, stall, trickle)"},
		{"unknown fault param", "outages:\n  - kind: rate-limit\n    from: 1s\n    to: 2s\n    params: {retry_afer: 20s}\n", "d.yaml:5:26: params.retry_afer: unknown key \"retry_afer\" for rate-limit (valid: "},
		{"bad fault param", "outages:\n  - kind: busy\n    from: 1s\n    to: 2s\n    params:\n      status: 418\n", "d.yaml:6:15: params.status: "},
		{"modifier in params", "outages:\n  - {kind: busy, from: 1s, to: 2s, params: {rate: 0.5}}\n", "params.rate: rate is a window key, written beside kind"},
		{"window backwards", "outages:\n  - kind: busy\n    from: 40s\n    to: 15s\n", "d.yaml:4:9: the window must start"},
		{"rate above 1", "outages:\n  - {kind: hang, from: 1s, to: 2s, rate: 30}\n", "d.yaml:2:42: rate is the share"},
		{"unknown rung", "outages:\n  - {kind: hang, from: 1s, to: 2s, models: [primry]}\n", "unknown model rung \"primry\" (valid: primary, backup)"},
		{"unknown preset", "policies:\n  - preset: breakr\n", "d.yaml:2:13: unknown policy preset \"breakr\" (valid: primary-only"},
		{"override without rung", "policies:\n  - preset: primary-only\n    backup_timeout: 2s\n", "d.yaml:3:21: backup_timeout: policy primary-only has no backup rung"},
		{"override without breaker", "policies:\n  - preset: fallback\n    cooldown: 2s\n", "d.yaml:3:15: cooldown: policy fallback has no breaker"},
		{"negative timeout", "policies:\n  - preset: fallback\n    primary_timeout: -2s\n", "d.yaml:3:22: primary_timeout: must not be negative, got -2s"},
		{"full without name", "policies:\n  - backup: true\n", "a policy needs a preset"},
		{"full keys with preset", "policies:\n  - preset: breaker\n    canned: false\n", "d.yaml:3:13: canned writes a policy out in full"},
		{"bad scope", "policies:\n  - preset: breaker\n    time_limit_scope: call\n", "d.yaml:3:23: time_limit_scope: unknown value \"call\" (valid: attempt, request)"},
		{"unknown figure", "hypotheses:\n  - served.eror == 0\n", "d.yaml:2:5: hypothesis: \"served.eror == 0\": unknown figure \"served.eror\" (valid: "},
		{"unknown operator", "abort:\n  - served.error => 2\n", "d.yaml:2:5: abort condition: \"served.error => 2\": unknown operator \"=>\" (valid: == != < <= > >=)"},
		{"fake model name", "models:\n  primary: {model: gpt-4o}\n", "d.yaml:2:20: the fake model serves no model \"gpt-4o\""},
		{"bad base url", "models:\n  primary: {base_url: ftp://x}\n", "base_url must be \"fake\""},
		{"emails out of range", "workload: {emails: 2000000}\n", "d.yaml:1:20: emails must be between 1 and 1000000"},
		{"unknown trip rule", "policies:\n  - preset: breaker\n    trip: [count, p95]\n", "d.yaml:3:11: trip: unknown rule \"p95\" (valid: count, consecutive, rate, slow-rate, p99, in-flight)"},
		{"trip not a list", "policies:\n  - preset: breaker\n    trip: count\n", "d.yaml:3:11: trip: want a list of rules such as [count, in-flight], got \"count\""},
		{"unknown stale", "policies:\n  - preset: breaker\n    stale: keep\n", "d.yaml:3:12: stale: unknown value \"keep\" (valid: drop, count)"},
		{"unknown breaker scope", "policies:\n  - preset: breaker\n    scope: global\n", "d.yaml:3:12: scope: unknown value \"global\" (valid: rung, endpoint)"},
		{"unknown probe", "policies:\n  - preset: breaker\n    probe: robot\n", "d.yaml:3:12: probe: unknown value \"robot\" (valid: customer, synthetic)"},
		{"unknown retry_after", "policies:\n  - preset: breaker\n    retry_after: obey\n", "(valid: ignore, honour)"},
		{"bad probes", "policies:\n  - preset: breaker\n    probes: zero\n", "d.yaml:3:13: probes: invalid probes \"zero\" (valid: a number above 0, or all)"},
		{"probes as a list", "policies:\n  - preset: breaker\n    probes: [1]\n", "d.yaml:3:13: probes: want a single value"},
		{"failure rate above 1", "policies:\n  - preset: breaker\n    trip_failure_rate: 1.5\n", "d.yaml:3:24: trip_failure_rate: must be above 0 and at most 1"},
		{"breaker key without breaker", "policies:\n  - preset: fallback\n    probes: all\n", "d.yaml:3:13: probes: policy fallback has no breaker"},
		{"probe interval without synthetic", "policies:\n  - preset: breaker\n    probe_interval: 2s\n", "probe_interval: needs probe synthetic"},
		{"in-flight age without the rule", "policies:\n  - preset: breaker\n    in_flight_age: 4s\n", "in_flight_age and in_flight_calls need the in-flight rule (trip count,in-flight)"},
		{"negative deadline", "policies:\n  - preset: fallback\n    email_deadline: -1s\n", "d.yaml:3:21: email_deadline: must not be negative"},
		{"text for count_429", "policies:\n  - preset: breaker\n    count_429: often\n", "d.yaml:3:16: count_429: want true or false"},
		{"floor without a primary", "policies:\n  - preset: backup-only\n    min_tokens_per_s: 15\n", "min_tokens_per_s: policy backup-only has no primary rung"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("d.yaml", []byte(tc.src))
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error:\n%v\nwant it to contain %q", err, tc.want)
			}
			var fe *Error
			if !errors.As(err, &fe) || fe.File != "d.yaml" {
				t.Errorf("error %T is not a *drillfile.Error naming the file", err)
			}
		})
	}
}

// TestEveryProblemReported: Check lists every problem, not the first.
func TestEveryProblemReported(t *testing.T) {
	_, err := Parse("d.yaml", []byte("workload: {rate: 0}\npolicies:\n  - preset: nope\nhypotheses: [\"x == 1\"]\n"))
	if err == nil || strings.Count(err.Error(), "d.yaml:") != 3 {
		t.Errorf("want three problems, got:\n%v", err)
	}
}

func TestEmptyFileIsTheDefaultDrill(t *testing.T) {
	for _, src := range []string{"", "# nothing yet\n"} {
		f, err := Parse("d.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		runs, err := f.Plan()
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
	f, err := Parse("d.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := f.Plan()
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
	f, err := Parse("d.yaml", []byte("outages:\n  - {kind: rate-limit, from: 1s, to: 9s, rate: 0.3, ramp: true, flap: {on: 1s, off: 2s}, models: [primary, backup], params: {retry_after: 20s}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := f.Plan()
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
	f, err := Parse("d.yaml", []byte(`models:
  primary: {base_url: http://127.0.0.1:1/v1, model: a}
  backup: {base_url: http://127.0.0.1:2/v1, model: b, api_key_env: DRILL_TEST_BACKUP_KEY}
prices: {a: 1/2, b: "0.5/4"}
`))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := f.Plan()
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
	if _, err := f.Plan(); err == nil || !strings.Contains(err.Error(), "backup") || !strings.Contains(err.Error(), "DRILL_TEST_BACKUP_KEY is not set") {
		t.Errorf("blank key: error %v", err)
	}

	// Without base_url, OPENAI_BASE_URL names the endpoint, as the SDK reads it.
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:3/v1")
	g, err := Parse("d.yaml", []byte("models:\n  backup: {base_url: fake}\n"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err = g.Plan()
	if err != nil {
		t.Fatal(err)
	}
	c = runs[0].Config
	if c.RungEndpoint("primary").BaseURL != "http://127.0.0.1:3/v1" || c.RungEndpoint("backup").BaseURL != "" {
		t.Errorf("OPENAI_BASE_URL: primary %+v backup %+v", c.RungEndpoint("primary"), c.RungEndpoint("backup"))
	}
}

// TestBadPrices: a malformed price is a check error at prices.
func TestBadPrices(t *testing.T) {
	_, err := Parse("d.yaml", []byte("prices: {a: cheap}\nmax_spend: -1\n"))
	if err == nil || !strings.Contains(err.Error(), "want MODEL=IN/OUT") || !strings.Contains(err.Error(), "max_spend must be above 0") {
		t.Errorf("error %v", err)
	}
}

// TestWindowsGroupByName: windows sharing a name are one outage.
func TestWindowsGroupByName(t *testing.T) {
	f, err := Parse("d.yaml", []byte(`outages:
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
	c, err := f.Config(sc[0], f.PolicyList()[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Outages) != 2 || c.Outage != "busy" || c.OutageFrom != 10*time.Second || c.OutageTo != 30*time.Second {
		t.Errorf("two windows in one run: %s %s–%s, %d windows; want busy over 10s–30s, 2 windows", c.Outage, c.OutageFrom, c.OutageTo, len(c.Outages))
	}
}

func TestTemplateIsAValidDrill(t *testing.T) {
	f, err := Parse("template.yaml", Template)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := f.Plan()
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || len(f.Hypotheses) == 0 || len(f.Abort) == 0 {
		t.Errorf("template plays %d runs with %d hypotheses and %d abort conditions", len(runs), len(f.Hypotheses), len(f.Abort))
	}
}

func TestTimeline(t *testing.T) {
	f, err := Parse("d.yaml", []byte(`workload: {emails: 40, rate: 1}
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
	if err := f.WriteTimeline(&b); err != nil {
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

// The fleet: block and a window's replicas are read strictly and checked
// at their line and column; replicas reach the injector's window.
func TestFleetBlock(t *testing.T) {
	f, err := Parse("d.yaml", []byte("fleet:\n  replicas: 4\n  routing: random\n  breaker_store: redis://127.0.0.1:6379/0\noutages:\n  - {kind: busy, from: 1s, to: 9s, replicas: [3]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Fleet == nil || *f.Fleet.Replicas != 4 || f.Fleet.Routing != "random" || f.Fleet.BreakerStore != "redis://127.0.0.1:6379/0" {
		t.Fatalf("fleet: %+v", f.Fleet)
	}
	runs, err := f.Plan()
	if err != nil {
		t.Fatal(err)
	}
	if ws := runs[0].Config.Windows(); len(ws) != 1 || len(ws[0].Replicas) != 1 || ws[0].Replicas[0] != 3 {
		t.Fatalf("windows %+v, want one naming replica 3", ws)
	}
	for _, tc := range []struct{ src, want string }{
		{"fleet:\n  replicas: 0\n", "d.yaml:2:13: replicas must be between 1 and 64, got 0"},
		{"fleet:\n  routing: hash\n", "d.yaml:2:12: unknown routing \"hash\" (valid: round-robin, random)"},
		{"fleet:\n  breaker_store: memcached://x\n", "d.yaml:2:18: unknown breaker_store \"memcached://x\" (valid: local, redis://HOST:PORT/DB)"},
		{"fleet:\n  replicas: 2\noutages:\n  - {kind: busy, from: 1s, to: 2s, replicas: [3]}\n", "replica 3 is not one of the fleet's 1–2"},
		{"fleet:\n  replcas: 2\n", "d.yaml:2:3: unknown field \"replcas\""},
	} {
		_, err := Parse("d.yaml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to contain %q", tc.src, err, tc.want)
		}
	}
}

// TestEveryPolicyOptionInAFile: each breaker and chain option of issue 10
// is a drill-file key that reaches the engine's policy.
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
	f, err := Parse("d.yaml", []byte(src))
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
	if _, err := f.Plan(); err != nil {
		t.Errorf("plan: %v", err)
	}
	// Every key of Overrides is in this file: a new option must be added here.
	older := []string{"time_limit_scope", "primary_timeout", "primary_retries", "backup_timeout", "backup_retries", "trip_failures", "trip_window", "cooldown"}
	for _, k := range OverrideKeys() {
		if !strings.Contains(src, " "+k+":") && !slices.Contains(older, k) {
			t.Errorf("key %s is not exercised", k)
		}
	}
}

// TestMergeTakesTheFlags: a flag's override replaces the file's; the
// file's others stay.
func TestMergeTakesTheFlags(t *testing.T) {
	file := Overrides{Cooldown: (*Duration)(ptrTo(2 * time.Second)), Stale: ptrTo("count")}
	flags := Overrides{Stale: ptrTo("drop"), Trip: Rules{"rate"}}
	flags.Trip = Rules{"rate", "p99"}
	got := strings.Join(file.Merge(flags).Set(), ", ")
	if got != "cooldown 2s, trip [rate, p99], stale drop" {
		t.Errorf("merged %q", got)
	}
}

func ptrTo[T any](v T) *T { return &v }

// TestTemplateShowsEveryOverride: drill init's template names every policy
// key.
func TestTemplateShowsEveryOverride(t *testing.T) {
	for _, k := range OverrideKeys() {
		if !strings.Contains(string(Template), " "+k+":") {
			t.Errorf("the template does not show %s", k)
		}
	}
}
