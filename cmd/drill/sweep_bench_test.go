package main

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// sweep48 is the 48-setting sweep.
var sweep48 = []string{"sweep", "--primary-timeout", "1s,2s,3s,5s", "--primary-retries", "0,1,2", "--trip-failures", "3,5",
	"--outages", "busy,hang", "--no-tui", "--json"}

// sweep64 is a 64-setting sweep.
var sweep64 = []string{"sweep", "--primary-timeout", "1s,2s,3s,5s", "--primary-retries", "0,1", "--trip-failures", "3,5",
	"--cooldown", "5s,10s", "--outages", "busy,hang", "--no-tui", "--json"}

// BenchmarkSweep48RealVsRun measures, in one benchmark run and in real
// time, one `drill run --no-tui --json` (the default drill: 120 emails,
// busy outage, breaker) and then the 48-setting sweep of 120 emails each;
// it reports both wall times and their ratio (target: at most 1.5). Each
// iteration takes about two minutes:
//
//	go test ./cmd/drill -run '^$' -bench Sweep48RealVsRun -benchtime 1x
func BenchmarkSweep48RealVsRun(b *testing.B) { benchRealVsRun(b, sweep48) }

// BenchmarkSweep64RealVsRun is the same with the 64-setting sweep
// (--primary-timeout 1s,2s,3s,5s --primary-retries 0,1 --trip-failures 3,5
// --cooldown 5s,10s --outages busy,hang):
//
//	go test ./cmd/drill -run '^$' -bench Sweep64RealVsRun -benchtime 1x
func BenchmarkSweep64RealVsRun(b *testing.B) { benchRealVsRun(b, sweep64) }

func benchRealVsRun(b *testing.B, sweepArgs []string) {
	var runS, sweepS float64
	for b.Loop() {
		runS += timed(b, "run", "--no-tui", "--json")
		sweepS += timed(b, sweepArgs...)
	}
	b.ReportMetric(runS/float64(b.N), "run-s")
	b.ReportMetric(sweepS/float64(b.N), "sweep-s")
	b.ReportMetric(sweepS/runS, "ratio")
}

// BenchmarkSweep48Virtual is the same sweep with --clock virtual (target:
// under 30 s), child process included:
//
//	go test ./cmd/drill -run '^$' -bench Sweep48Virtual -benchtime 3x
func BenchmarkSweep48Virtual(b *testing.B) { benchVirtual(b, sweep48) }

// BenchmarkSweep64Virtual is the 64-setting sweep with --clock virtual
// (target: under 30 s).
func BenchmarkSweep64Virtual(b *testing.B) { benchVirtual(b, sweep64) }

func benchVirtual(b *testing.B, sweepArgs []string) {
	args := append(append([]string{}, sweepArgs...), "--clock", "virtual")
	for b.Loop() {
		timed(b, args...)
	}
}

// timed runs drill with args and returns its wall time in seconds, failing
// the benchmark unless it exits 0 with valid JSON whose served counts add
// up to the emails.
func timed(b *testing.B, args ...string) float64 {
	start := time.Now()
	stdout, stderr, code := execute(context.Background(), args...)
	d := time.Since(start).Seconds()
	if code != 0 {
		b.Fatalf("drill %v: exit %d: %s", args, code, stderr)
	}
	if args[0] == "sweep" {
		var res sweepJSON
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			b.Fatal(err)
		}
		for _, r := range res.Rows {
			f := r.Figures
			if f["served.primary"].Median+f["served.backup"].Median+f["served.canned"].Median+f["served.error"].Median != f["emails"].Median {
				b.Errorf("row %s: served counts do not add up to the emails", r.Flags)
			}
		}
		b.Logf("%d rows in %.1f s", len(res.Rows), d)
	}
	return d
}
