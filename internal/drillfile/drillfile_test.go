package drillfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
		{"unknown kind", "outages:\n  - {kind: bussy, from: 1s, to: 2s}\n", "d.yaml:2:12: unknown fault kind \"bussy\"; did you mean busy? (valid: busy, hang, malformed, rate-limit, reset, slow, stall, trickle, loop, malformed-tool-call, overloaded)"},
		{"unknown fault param", "outages:\n  - kind: rate-limit\n    from: 1s\n    to: 2s\n    params: {retry_afer: 20s}\n", "d.yaml:5:26: params.retry_afer: unknown key \"retry_afer\" for rate-limit (valid: "},
		{"bad fault param", "outages:\n  - kind: busy\n    from: 1s\n    to: 2s\n    params:\n      status: 418\n", "d.yaml:6:15: params.status: "},
		{"modifier in params", "outages:\n  - {kind: busy, from: 1s, to: 2s, params: {rate: 0.5}}\n", "params.rate: rate is a window key, written beside kind"},
		{"window backwards", "outages:\n  - kind: busy\n    from: 40s\n    to: 15s\n", "d.yaml:4:9: the window must start"},
		{"rate above 1", "outages:\n  - {kind: hang, from: 1s, to: 2s, rate: 30}\n", "d.yaml:2:42: rate is the share"},
		{"unknown rung", "outages:\n  - {kind: hang, from: 1s, to: 2s, models: [primry]}\n", "unknown model rung \"primry\"; did you mean primary? (valid: primary, backup)"},
		{"unknown preset", "policies:\n  - preset: breakr\n", "d.yaml:2:13: unknown policy preset \"breakr\"; did you mean breaker? (valid: primary-only"},
		{"override without rung", "policies:\n  - preset: primary-only\n    backup_timeout: 2s\n", "d.yaml:3:21: backup_timeout: policy primary-only has no backup rung"},
		{"override without breaker", "policies:\n  - preset: fallback\n    cooldown: 2s\n", "d.yaml:3:15: cooldown: policy fallback has no breaker"},
		{"negative timeout", "policies:\n  - preset: fallback\n    primary_timeout: -2s\n", "d.yaml:3:22: primary_timeout: must not be negative, got -2s"},
		{"full without name", "policies:\n  - backup: true\n", "a policy needs a preset"},
		{"full keys with preset", "policies:\n  - preset: breaker\n    canned: false\n", "d.yaml:3:13: canned writes a policy out in full"},
		{"bad scope", "policies:\n  - preset: breaker\n    time_limit_scope: call\n", "d.yaml:3:23: time_limit_scope: unknown value \"call\" (valid: attempt, request)"},
		{"unknown figure", "hypotheses:\n  - served.eror == 0\n", "d.yaml:2:5: hypothesis: \"served.eror == 0\": unknown figure \"served.eror\"; did you mean \"served.error\"?"},
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

// TestBadPrices: a malformed price is a check error at prices.
func TestBadPrices(t *testing.T) {
	_, err := Parse("d.yaml", []byte("prices: {a: cheap}\nmax_spend: -1\n"))
	if err == nil || !strings.Contains(err.Error(), "want MODEL=IN/OUT") || !strings.Contains(err.Error(), "max_spend must be above 0") {
		t.Errorf("error %v", err)
	}
}

// The fleet: block and a window's replicas are read strictly and checked
// at their line and column (plan's TestFleetReplicasReachTheInjector: they
// reach the injector's window).
func TestFleetBlock(t *testing.T) {
	f, err := Parse("d.yaml", []byte("fleet:\n  replicas: 4\n  routing: random\n  breaker_store: redis://127.0.0.1:6379/0\noutages:\n  - {kind: busy, from: 1s, to: 9s, replicas: [3]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Fleet == nil || *f.Fleet.Replicas != 4 || f.Fleet.Routing != "random" || f.Fleet.BreakerStore != "redis://127.0.0.1:6379/0" {
		t.Fatalf("fleet: %+v", f.Fleet)
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

// TestListenKeys: metrics_listen and alert_listen are read as addresses,
// and one that is not HOST:PORT is an error at its key.
func TestListenKeys(t *testing.T) {
	f, err := Parse("d.yaml", []byte("metrics_listen: 127.0.0.1:9464\nalert_listen: ':9465'\n"))
	if err != nil || f.MetricsListen != "127.0.0.1:9464" || f.AlertListen != ":9465" {
		t.Fatalf("parsed %+v, %v", f, err)
	}
	_, err = Parse("d.yaml", []byte("metrics_listen: localhost\n"))
	if err == nil || !strings.Contains(err.Error(), "metrics_listen must be HOST:PORT") {
		t.Errorf("error %v, want metrics_listen must be HOST:PORT", err)
	}
}

// TestLoadRefusesWhatIsNotADrillFile: /dev/null (which would play the
// default drill), /dev/zero (which would be read without end), a named
// pipe with no writer and a file past MaxFileBytes are errors naming the
// file, returned quickly.
func TestLoadRefusesWhatIsNotADrillFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "drill.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", MaxFileBytes)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"/dev/null": "character device",
		"/dev/zero": "character device",
		fifo:        "named pipe",
		big:         "larger than 1 MiB",
	} {
		start := time.Now()
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), want) {
			t.Errorf("Load(%s) = %v, want an error naming the file with %q", path, err, want)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("Load(%s) took %v", path, d)
		}
	}
}

// A NaN or infinite stream floor is refused at its key, in a triage policy
// and a chat policy alike.
func TestStreamFloorMustBeFinite(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"policies:\n  - preset: breaker\n    min_tokens_per_s: .nan\n", "d.yaml:3:23: min_tokens_per_s: must be a number, got NaN"},
		{"policies:\n  - preset: breaker\n    min_tokens_per_s: .inf\n", "d.yaml:3:23: min_tokens_per_s: must be finite"},
		{"chat:\n  policy:\n    min_tokens_per_s: .nan\n", "d.yaml:3:23: min_tokens_per_s: must be a number, got NaN"},
	} {
		_, err := Parse("d.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.yaml, err, tc.want)
		}
	}
}
