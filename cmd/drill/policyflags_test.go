package main

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

func TestPolicyFlagsBadValuesExitTwo(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"unknown trip rule", []string{"run", "--trip", "count,p95"}, []string{"p95", "count, consecutive, rate, slow-rate, p99, in-flight"}},
		{"bad probes", []string{"run", "--probes", "0"}, []string{"a number above 0, or all"}},
		{"unknown probe", []string{"run", "--probe", "robot"}, []string{"robot", "customer, synthetic"}},
		{"unknown stale", []string{"run", "--stale", "keep"}, []string{"keep", "drop, count"}},
		{"unknown retry-after", []string{"run", "--retry-after", "obey"}, []string{"obey", "ignore, honour"}},
		{"unknown breaker scope", []string{"run", "--breaker-scope", "global"}, []string{"global", "rung, endpoint"}},
		{"rate above 1", []string{"run", "--trip", "rate", "--trip-failure-rate", "1.5"}, []string{"trip-failure-rate", "at most 1"}},
		{"negative deadline", []string{"run", "--email-deadline", "-1s"}, []string{"email-deadline"}},
		{"hedge without a backup", []string{"run", "--policy", "primary-only", "--hedge-after", "2s"}, []string{"hedging"}},
		{"breaker flag without breaker", []string{"run", "--policy", "fallback", "--stale", "count"}, []string{"stale", "fallback"}},
		{"in-flight age without the rule", []string{"run", "--in-flight-age", "4s"}, []string{"in-flight"}},
		{"probe interval without synthetic", []string{"run", "--probe-interval", "2s"}, []string{"synthetic"}},
		{"count slow stream without a floor", []string{"run", "--count-slow-stream"}, []string{"count_slow_stream", "min_tokens_per_s"}},
		{"negative floor", []string{"run", "--min-tokens-per-s", "-1"}, []string{"min-tokens-per-s"}},
		{"predict unknown outage", []string{"predict", "--outage", "flood"}, []string{"flood", "busy, hang"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := execute(t.Context(), tc.args...)
			if code != 2 {
				t.Errorf("exit code %d, want 2 (stderr: %s)", code, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("message %q does not mention %q", stderr, w)
				}
			}
		})
	}
}

// TestPolicyFlagsReachTheConfig: every flag lands in the policy (and so in
// the journal header, which records the whole config).
func TestPolicyFlagsReachTheConfig(t *testing.T) {
	var f drillFlags
	cmd := &cobra.Command{Use: "test"}
	f.register(cmd.Flags())
	args := []string{"--trip", "count,in-flight,p99", "--in-flight-age", "4s", "--in-flight-calls", "2",
		"--trip-p99", "6s", "--trip-min-samples", "8", "--probes", "all", "--probe", "synthetic", "--probe-interval", "2s",
		"--stale", "count", "--retry-after", "honour", "--count-429", "--count-invalid", "--breaker-scope", "endpoint",
		"--email-deadline", "20s", "--hedge-after", "3s", "--rules", "--primary-max-retry-delay", "10s",
		"--min-tokens-per-s", "15", "--stream-check", "3s", "--count-slow-stream"}
	if err := cmd.Flags().Parse(args); err != nil {
		t.Fatal(err)
	}
	cfg, err := f.config(cmd.Flags(), "hang", "breaker")
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

// TestPredictCommandContainsTheRun: drill predict's first-open range holds
// drill run's measured first open (fake time).
func TestPredictCommandContainsTheRun(t *testing.T) {
	out, stderr, code := execute(t.Context(), "predict", "--outage", "hang", "--policy", "breaker", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		First [2]float64 `json:"predicted_first_open_s"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	synctest.Test(t, func(t *testing.T) {
		cfg := workload.DefaultConfig()
		cfg.Outage = "hang"
		cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
		r, err := workload.Start(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		r.Wait()
		s := scoring.Summarize(r.Log().Events())
		if s.BreakerFirstOpenS == nil || !predict.Range(got.First).Contains(*s.BreakerFirstOpenS) {
			t.Fatalf("measured first open %v outside predicted %v", s.BreakerFirstOpenS, got.First)
		}
		t.Logf("predicted %v, measured %.2f s", got.First, *s.BreakerFirstOpenS)
	})
}

// TestEveryOverrideIsAFlag: each drill-file override key is a flag of
// drill run, read into its override when given.
func TestEveryOverrideIsAFlag(t *testing.T) {
	var f drillFlags
	cmd := &cobra.Command{Use: "test"}
	f.register(cmd.Flags())
	values := map[string]string{"time_limit_scope": "request", "trip": "count,p99", "probes": "all", "probe": "synthetic",
		"stale": "count", "retry_after": "honour", "scope": "endpoint", "trip_failure_rate": "0.5", "trip_slow_rate": "0.5",
		"min_tokens_per_s": "15"}
	var args []string
	for _, key := range drillfile.OverrideKeys() {
		name := drillfile.FlagName(key)
		fl := cmd.Flags().Lookup(name)
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
	if err := cmd.Flags().Parse(args); err != nil {
		t.Fatal(err)
	}
	o := plan.FlagOverrides(cmd.Flags())
	if got, want := len(o.Set()), len(drillfile.OverrideKeys()); got != want {
		t.Errorf("%d of %d overrides read from flags: %v", got, want, o.Set())
	}
	if !strings.Contains(strings.Join(o.Set(), ", "), "scope endpoint") {
		t.Errorf("--breaker-scope not read into scope: %v", o.Set())
	}
}

// TestRunSummaryCarriesThePrediction: drill run's summary has the
// predicted_* figures, logged before the run, and the measured first open
// and calls fall inside them (virtual clock).
func TestRunSummaryCarriesThePrediction(t *testing.T) {
	out, stderr, code := execute(t.Context(), "run", "--clock", "virtual", "--json", "--outage", "hang", "--policy", "breaker")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var s scoring.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if s.PredictedFirstOpenS == nil || s.BreakerFirstOpenS == nil || !predict.Range(*s.PredictedFirstOpenS).Contains(*s.BreakerFirstOpenS) {
		t.Errorf("measured first open %v outside predicted %v (note %q)", s.BreakerFirstOpenS, s.PredictedFirstOpenS, s.PredictedNote)
	}
	if c := s.PredictedCallsToBroken; c == nil || !predict.Range(*c).Contains(float64(s.CallsToBrokenOutage)) {
		t.Errorf("measured %d calls to the broken model, predicted %v", s.CallsToBrokenOutage, c)
	}
	t.Logf("first open measured %.2f s, predicted %v; calls %d, predicted %v", *s.BreakerFirstOpenS, *s.PredictedFirstOpenS, s.CallsToBrokenOutage, *s.PredictedCallsToBroken)
}
