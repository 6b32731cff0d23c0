package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNumbersAtTheEdgeExitTwo: NaN, infinities and overflowing values in
// flags, sweep ranges and drill files are usage errors (exit 2) naming the
// flag or the setting, never a panic and never a run that fails later;
// validate refuses what a run would.
func TestNumbersAtTheEdgeExitTwo(t *testing.T) {
	dir := t.TempDir()
	file := func(name, yaml string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	nanFloor := file("nan.yaml", "policies:\n  - preset: breaker\n    min_tokens_per_s: .nan\n")
	hugeTo := file("to.yaml", "outages:\n  - kind: busy\n    from: 1s\n    to: 9223372036854775807ns\n")
	tinyRate := file("rate.yaml", "workload:\n  rate: 1e-300\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--dry-run", "--trip-failure-rate", "NaN..1..0.1"}, `--trip-failure-rate: bad range "NaN..1..0.1": must be a number`},
		{[]string{"run", "--clock", "virtual", "--speed", "NaN", "--no-tui"}, "--speed must be a number, got NaN"},
		{[]string{"replay", "x.jsonl", "--speed", "+Inf"}, "--speed must be finite"},
		{[]string{"fake-model", "--latency-scale", "NaN"}, "--latency-scale must be a number"},
		{[]string{"proxy", "--latency-scale", "Inf"}, "--latency-scale must be finite"},
		{[]string{"eval", "--latency-scale", "-Inf"}, "--latency-scale must be finite"},
		{[]string{"validate", nanFloor}, "nan.yaml:3:23: min_tokens_per_s: must be a number, got NaN"},
		{[]string{"run", "-f", nanFloor, "--clock", "virtual", "--no-tui"}, "nan.yaml:3:23: min_tokens_per_s: must be a number, got NaN"},
		{[]string{"validate", hugeTo}, "its end must be at most 168h0m0s"},
		{[]string{"validate", tinyRate}, "rate must be at least 0.001"},
	} {
		_, stderr, code := execute(context.Background(), c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "panic") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", c.args, code, stderr, c.want)
		}
	}
}

// TestSweepTooBigExitsTwo: a sweep past sweep.MaxRuns drills is refused
// before anything is built (20,000 settings once passed 3 GB, --repeat
// 1000000000 --dry-run 2 GB), with an error naming the flag.
func TestSweepTooBigExitsTwo(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--dry-run", "--repeat", "1000000000"}, "--repeat must be at most 10000"},
		{[]string{"sweep", "--dry-run", "--primary-timeout", "1ms..1s..1ms", "--trip-failures", "1..20"}, "--primary-timeout, --trip-failures"},
		{[]string{"sweep", "--dry-run", "--primary-timeout", "1ms..1s..1ms", "--repeat", "6"}, "--repeat 6: "},
	} {
		start := time.Now()
		_, stderr, code := execute(context.Background(), c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", c.args, code, stderr, c.want)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%v: took %v", c.args, d)
		}
	}
}
