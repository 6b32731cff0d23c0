package predict

import (
	"testing"
	"testing/synctest"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// measure runs cfg in fake time and returns its first open after the
// outage start, and whether there was one.
func measure(t *testing.T, cfg workload.Config) (float64, bool, int) {
	t.Helper()
	var first float64
	var ok bool
	var calls int
	synctest.Test(t, func(t *testing.T) {
		cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
		r, err := workload.Start(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		r.Wait()
		s := scoring.Summarize(r.Log().Events())
		if s.BreakerFirstOpenS != nil {
			first, ok = *s.BreakerFirstOpenS, true
		}
		calls = s.CallsToBrokenOutage
	})
	return first, ok, calls
}

func chapter(t *testing.T, outage, policy string) workload.Config {
	t.Helper()
	cfg := workload.DefaultConfig()
	p, err := workload.Preset(policy)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Outage, cfg.Policy = outage, p
	if !p.HasPrimary() {
		cfg.Target = event.ServedBackup
	}
	return cfg
}

// check predicts cfg, runs it, and fails unless the measured first open
// lies in the predicted range (or both say never).
func check(t *testing.T, name string, cfg workload.Config) {
	t.Helper()
	p, err := Compute(cfg)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	got, opened, calls := measure(t, cfg)
	switch {
	case p.FirstOpenS == nil && opened:
		t.Errorf("%s: predicted never, measured first open %.2f s", name, got)
	case p.FirstOpenS != nil && !opened && !p.MayNeverOpen:
		t.Errorf("%s: predicted %s, measured never", name, *p.FirstOpenS)
	case opened && !p.FirstOpenS.Contains(got):
		t.Errorf("%s: measured first open %.2f s outside the predicted %s\n%v", name, got, *p.FirstOpenS, p.Lines)
	}
	pred := "never"
	if p.FirstOpenS != nil {
		pred = p.FirstOpenS.String()
		if p.MayNeverOpen {
			pred += " or never"
		}
	}
	t.Logf("%-45s predicted %-12s measured %5.2f (opened %v); calls predicted %v measured %d", name, pred, got, opened, p.CallsToBroken, calls)
}

func TestEightRunsFirstOpenInRange(t *testing.T) {
	for _, outage := range []string{"busy", "hang"} {
		for _, policy := range []string{"primary-only", "fallback", "breaker", "fail-fast"} {
			check(t, outage+"/"+policy, chapter(t, outage, policy))
		}
	}
}

func TestFailureArithmetic(t *testing.T) {
	p, err := Compute(chapter(t, "hang", "breaker"))
	if err != nil {
		t.Fatal(err)
	}
	// The chapter's 16.3 s: 3 × 5 s + 0.375–0.5 s + 0.75–1 s.
	if p.FailureS == nil || *p.FailureS != (Range{16.125, 16.5}) || p.Attempts != 3 {
		t.Fatalf("failure %v after %d attempts, want 16.125–16.5 s after 3", p.FailureS, p.Attempts)
	}
	// The fifth failure: sent at 17 s (15 + 4 × 0.5), counted 16.1–16.5 s later.
	if p.NthFailureS == nil || *p.NthFailureS != (Range{18.125, 18.5}) {
		t.Fatalf("5th failure %v, want 18.125–18.5 s after the outage starts", p.NthFailureS)
	}
	cfg := chapter(t, "hang", "breaker")
	cfg.Policy.Primary.TimeLimit = 0
	if p, _ := Compute(cfg); p.FailureS != nil || p.FirstOpenS != nil || p.WorstWaitS != nil {
		t.Fatalf("a hang with no limit: failure %v, first open %v, worst wait %v; want never, never, unbounded",
			p.FailureS, p.FirstOpenS, p.WorstWaitS)
	}
}
