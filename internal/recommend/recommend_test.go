package recommend

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
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

// playSnippet plays the recommendation's snippet through busy and hang
// (15–40 s) in fake time and calls check with each outage's summary and
// fold.
func playSnippet(t *testing.T, res *Result, check func(t *testing.T, outage string, s scoring.Summary, f *scoring.Fold)) {
	t.Helper()
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
			f := scoring.NewFold()
			f.AddLog(run.Log())
			check(t, r.Outage.Name, scoring.Summarize(run.Log().Events()), f)
		})
	}
}

// neverOnTheBackup checks that no safety email and not email 71 ("YOU
// CHARGED ME TWICE") was served by the backup.
func neverOnTheBackup(t *testing.T, outage string, s scoring.Summary, f *scoring.Fold) {
	t.Helper()
	if c, ok := s.Classes["safety"]; !ok || c.Emails == 0 || c.Served.Backup != 0 {
		t.Errorf("%s: safety %+v", outage, c)
	}
	if f.Class(71) != "billing-error" {
		t.Errorf("%s: email 71 is in class %q, not billing-error", outage, f.Class(71))
	}
	if r, ok := f.Result(71); !ok || r.ServedBy == event.ServedBackup {
		t.Errorf("%s: email 71 served by %q", outage, r.ServedBy)
	}
}

// TestRecommendationHoldsWhenRun: recommend for the built-in classes within
// 5 s, then run the printed snippet's drill through busy and hang: every
// class's p95 wait during the outage is within 5 s, and the safety and
// billing-error classes, kept off the backup by the shop's checklist
// (--route gives no never mode), are never served by it.
func TestRecommendationHoldsWhenRun(t *testing.T) {
	res, err := Run(t.Context(), Options{Within: 5 * time.Second, Repeat: 1,
		Routes: []string{"safety=breaker", "billing-error=breaker", "returns=breaker"}})
	if err != nil {
		t.Fatal(err)
	}
	// 12 settings × (busy, hang, no outage), and the primary alone's day.
	if !res.Met || res.Tried != 12 || res.Drills != 37 || len(res.Classes) != 4 {
		t.Fatalf("met %v, tried %d, drills %d, classes %d:\n%s", res.Met, res.Tried, res.Drills, len(res.Classes), res.Snippet)
	}
	for _, p := range res.Classes[:2] {
		if p.Hold != event.HoldPerson {
			t.Errorf("class %s is not kept off the backup: %q", p.Class, p.Hold)
		}
	}
	t.Logf("snippet:\n%s", res.Snippet)
	var text strings.Builder
	if err := res.WriteText(&text); err != nil || !strings.Contains(text.String(), "tried 12 settings") {
		t.Errorf("text: %v\n%s", err, text.String())
	}
	playSnippet(t, res, func(t *testing.T, outage string, s scoring.Summary, f *scoring.Fold) {
		for _, p := range res.Classes {
			c := s.Classes[p.Class]
			if w := c.P95WaitOutageS; w != nil && *w > 5 {
				t.Errorf("%s: class %s waits %.2f s at p95, over the 5 s it was recommended for", outage, p.Class, *w)
			}
		}
		neverOnTheBackup(t, outage, s, f)
	})
}

// TestNoRecommendationPutsSafetyOrADoubleChargeOnTheBackup: with every
// built-in class and with examples/routes.yaml, the recommended drill
// never lets a safety email or email 71 ("YOU CHARGED ME TWICE") reach the
// backup, in either outage.
func TestNoRecommendationPutsSafetyOrADoubleChargeOnTheBackup(t *testing.T) {
	for _, file := range []string{"", filepath.Join("..", "..", "examples", "routes.yaml")} {
		t.Run("file="+file, func(t *testing.T) {
			res, err := Run(t.Context(), Options{Within: 5 * time.Second, Repeat: 1, File: file})
			if err != nil {
				t.Fatal(err)
			}
			playSnippet(t, res, neverOnTheBackup)
		})
	}
}

// TestEveryPickKeepsTheNormalDay: within 2.5 s the fastest settings (a
// 1 s time limit) send most emails to the backup on a day with no outage;
// no class's pick, met or closest, leaves more than 5 % of its emails off
// the primary on any normal day searched, and each 1 s setting is
// rejected saying so.
func TestEveryPickKeepsTheNormalDay(t *testing.T) {
	res, err := Run(t.Context(), Options{Within: 2500 * time.Millisecond, Repeat: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Classes {
		if p.NormalDay.Fallback.N == 0 || p.NormalDay.Fallback.Max > scoring.DefaultNormalMaxFallback {
			t.Errorf("class %s: %s leaves %+v of its emails off the primary with no outage", p.Class, p.Flags, p.NormalDay.Fallback)
		}
		if strings.Contains(p.Flags, "--primary-timeout 1s") {
			t.Errorf("class %s: picked %s", p.Class, p.Flags)
		}
		rejected := 0
		for _, x := range p.Rejected {
			if strings.HasSuffix(x.Flags, "--primary-timeout 1s") {
				rejected++
				if len(x.Misses) == 0 || x.Misses[0].Bound != scoring.BoundNormalMaxFallback {
					t.Errorf("class %s: %s rejected for %+v", p.Class, x.Flags, x.Misses)
				}
			}
		}
		if rejected != 3 || p.Candidates+len(p.Rejected) != res.Tried || p.Reason == "" {
			t.Errorf("class %s: %d of the 1 s settings rejected, %d eligible and %d rejected of %d; reason %q",
				p.Class, rejected, p.Candidates, len(p.Rejected), res.Tried, p.Reason)
		}
	}
}

// TestOutputSaysWhy: the text and the progress are headed by drill
// recommend (not drill sweep), the text states the rule, and gives each class's reason, its eligible settings and every
// rejected one's missed bound.
func TestOutputSaysWhy(t *testing.T) {
	var progress strings.Builder
	res, err := Run(t.Context(), Options{Within: 5 * time.Second, Repeat: 1, Routes: []string{"returns=breaker"}, Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(progress.String(), "drill recommend: 37 drills") {
		t.Errorf("progress %q", progress.String())
	}
	var b strings.Builder
	if err := res.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{"drill recommend: tried 12 settings", Rule, "class returns: ", "  why: ", "met the bounds (",
		"rejected (", "--primary-timeout 1s: with no outage, leaves ", "no outage (worst repeat): "} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	if strings.HasPrefix(text, "drill sweep") {
		t.Errorf("headed as drill sweep:\n%s", text)
	}
}

// TestBadBoundsRefusedBeforeAnyDrill: a bound that is not a share (NaN
// included) or the normal day named as an outage is a usage error, before
// any drill runs.
func TestBadBoundsRefusedBeforeAnyDrill(t *testing.T) {
	nan, two := math.NaN(), 2.0
	for name, o := range map[string]Options{
		"min-all4-right NaN":       {Within: time.Second, MinAll4Right: nan},
		"min-all4-right 2":         {Within: time.Second, MinAll4Right: 2},
		"normal-max-fallback NaN":  {Within: time.Second, NormalMaxFallback: &nan},
		"normal-max-fallback 2":    {Within: time.Second, NormalMaxFallback: &two},
		"normal-min-all4-right -1": {Within: time.Second, NormalQuality: &scoring.NormalQuality{Floor: -1}},
		"within -1s":               {Within: -time.Second},
		"outages none":             {Within: time.Second, Outages: []string{"hang", "none"}},
	} {
		var progress strings.Builder
		o.Progress = &progress
		if _, err := Run(t.Context(), o); exit.Code(err) != exit.Usage || progress.Len() != 0 {
			t.Errorf("%s: exit %d (%v), progress %q", name, exit.Code(err), err, progress.String())
		}
	}
}

// TestDrillFileBounds: a drill file's recommend: section sets the bounds
// the command line leaves unset; a flag given wins.
func TestDrillFileBounds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.yaml")
	body := "recommend:\n  within: 4s\n  min_all4_right: 70%\n  normal_max_fallback: 0.1\n  normal_min_all4_right: none\n" +
		"routes:\n  - {class: returns, match: {intent: [return]}, policy: breaker}\n"
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	df, err := drillfile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	o := withFile(Options{}, df)
	if o.Within != 4*time.Second || o.MinAll4Right != 0.7 || *o.NormalMaxFallback != 0.1 || *o.NormalQuality != (scoring.NormalQuality{}) {
		t.Errorf("%+v", o)
	}
	given := 0.02
	if o := withFile(Options{Within: time.Second, NormalMaxFallback: &given}, df); o.Within != time.Second || *o.NormalMaxFallback != 0.02 {
		t.Errorf("flags given: %+v", o)
	}
}

// TestUnmetBoundSaysWhyAndTheClosest: a bound nothing meets is no error:
// the class is not met, with the reason and the closest setting's figures.
// The closest keeps the normal day: the 2 s limit, not the 1 s one that
// waits less in the hang but sends most emails to the backup with no
// outage.
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
	if p.Met || p.Class != "returns" || !strings.Contains(p.Reason, "the closest, --policy breaker --primary-retries 0 --primary-timeout 2s") ||
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
