package main

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/drill-dev/drill/internal/fakemodel"
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
