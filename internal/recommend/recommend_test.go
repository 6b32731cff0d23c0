package recommend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// TestMain lets the sweep re-execute this test binary as its virtual-clock
// child.
func TestMain(m *testing.M) {
	vclock.Main()
	os.Exit(m.Run())
}

// TestRecommendationHoldsWhenRun: recommend for the built-in classes within
// 5 s, then run the printed snippet's drill through busy and hang: every
// class's p95 wait during the outage is within 5 s, and the safety class,
// routed backup: never, is never served by the backup.
func TestRecommendationHoldsWhenRun(t *testing.T) {
	res, err := Run(t.Context(), Options{Within: 5 * time.Second, Repeat: 1,
		Routes: []string{"safety=breaker,never,person", "billing-error=breaker", "returns=breaker"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Met || res.Tried != 12 || res.Drills != 24 || len(res.Classes) != 4 {
		t.Fatalf("met %v, tried %d, drills %d, classes %d:\n%s", res.Met, res.Tried, res.Drills, len(res.Classes), res.Snippet)
	}
	t.Logf("snippet:\n%s", res.Snippet)
	var text strings.Builder
	if err := res.WriteText(&text); err != nil || !strings.Contains(text.String(), "tried 12 settings") {
		t.Errorf("text: %v\n%s", err, text.String())
	}
	path := filepath.Join(t.TempDir(), "recommended.yaml")
	drill := "outages:\n  - {kind: busy, from: 15s, to: 40s}\n  - {kind: hang, from: 15s, to: 40s}\n" + res.Snippet
	if err := os.WriteFile(path, []byte(drill), 0o600); err != nil {
		t.Fatal(err)
	}
	df, err := drillfile.Load(path)
	if err != nil {
		t.Fatalf("the snippet does not load: %v\n%s", err, drill)
	}
	runs, err := plan.Runs(df)
	if err != nil || len(runs) != 2 {
		t.Fatalf("%d runs: %v", len(runs), err)
	}
	for _, r := range runs {
		synctest.Test(t, func(t *testing.T) {
			cfg := r.Config
			cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
			run, err := workload.Start(t.Context(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			run.Wait()
			s := scoring.Summarize(run.Log().Events())
			for _, p := range res.Classes {
				c := s.Classes[p.Class]
				if w := c.P95WaitOutageS; w != nil && *w > 5 {
					t.Errorf("%s: class %s waits %.2f s at p95, over the 5 s it was recommended for", r.Outage.Name, p.Class, *w)
				}
			}
			if b := s.Classes["safety"].Served.Backup; b != 0 {
				t.Errorf("%s: %d safety emails served by the backup", r.Outage.Name, b)
			}
		})
	}
}

// TestUnmetBoundSaysWhyAndTheClosest: a bound nothing meets is no error:
// the class is not met, with the reason and the closest setting's figures.
func TestUnmetBoundSaysWhyAndTheClosest(t *testing.T) {
	res, err := Run(t.Context(), Options{Within: 200 * time.Millisecond, Repeat: 1, Outages: []string{"hang"},
		Routes: []string{"returns=breaker"}, Grid: []Axis{{Flag: "primary-timeout", Values: "1s,2s"}, {Flag: "primary-retries", Values: "0"}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Met || res.Tried != 2 {
		t.Fatalf("met %v, tried %d", res.Met, res.Tried)
	}
	p := res.Classes[0]
	if p.Met || p.Class != "returns" || !strings.Contains(p.Reason, "the closest, --policy breaker --primary-retries 0 --primary-timeout 1s") ||
		!strings.Contains(p.Reason, "(bound 0.2 s)") || len(p.Outages) != 1 || p.Outages[0].P95WaitS == nil {
		t.Errorf("%+v", p)
	}
}

// TestPolicyFlag: the policy flags map to drill-file keys; others are not
// searched.
func TestPolicyFlag(t *testing.T) {
	for flag, want := range map[string]string{"primary-timeout": "primary_timeout", "breaker-scope": "scope", "policies": "preset"} {
		if k, ok := PolicyFlag(flag); !ok || k != want {
			t.Errorf("%s: %s %v", flag, k, ok)
		}
	}
	if _, ok := PolicyFlag("rate"); ok {
		t.Error("rate is no policy setting")
	}
}
