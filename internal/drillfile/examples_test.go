package drillfile_test

import (
	"errors"
	"path/filepath"
	"testing"
	"testing/synctest"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// playInBubble runs one planned drill to its end inside the current
// synctest bubble, guarded by the abort conditions, and judges it.
func playInBubble(t *testing.T, cfg workload.Config, hyps, abort []scoring.Expr) (scoring.Summary, string, string, []scoring.Verdict) {
	t.Helper()
	if cfg.Endpoint.BaseURL == "" && cfg.Endpoint.Transport == nil {
		cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
	}
	run, err := workload.Start(t.Context(), cfg)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	tripped := make(chan string, 1)
	go func() { tripped <- session.Guard(run, abort, session.GuardInterval) }()
	status := run.Wait()
	sum := scoring.Summarize(run.Log().Events())
	reason := <-tripped
	figs, err := scoring.FiguresOf(sum)
	if err != nil {
		t.Fatal(err)
	}
	return sum, status, reason, scoring.Judge(figs, hyps)
}

// TestExamples: every example file validates, and every run it describes
// plays in fake time with every hypothesis holding and no abort. A file
// this build's engine cannot play yet (a fault kind, modifier or stream the
// injector does not offer) is skipped, saying which setting.
func TestExamples(t *testing.T) {
	paths, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(paths) < 5 {
		t.Fatalf("examples: %v %v", paths, err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := drillfile.Load(path)
			if err != nil {
				t.Fatalf("does not validate: %v", err)
			}
			hyps, abort, err := plan.Checks(f)
			if err != nil {
				t.Fatal(err)
			}
			if len(hyps) == 0 {
				t.Fatal("an example without hypotheses checks nothing")
			}
			runs, err := plan.Runs(f)
			if errors.Is(err, drillfile.ErrUnsupported) {
				t.Skipf("valid, but this build cannot play it yet: %v", err)
			}
			if err != nil {
				t.Fatalf("plan: %v", err)
			}
			for _, r := range runs {
				t.Run(r.Outage.Name+"/"+r.Policy.PolicyName(), func(t *testing.T) {
					synctest.Test(t, func(t *testing.T) {
						sum, status, reason, vs := playInBubble(t, r.Config, hyps, abort)
						if status != event.StatusCompleted || reason != "" {
							t.Errorf("status %s (abort: %q), want completed", status, reason)
						}
						for _, v := range vs {
							t.Logf("%-32s %-5v measured %s", v.Expr, v.Pass, scoring.FormatValue(v.Value))
							if !v.Pass {
								t.Errorf("hypothesis failed: %s (measured %s)", v.Expr, scoring.FormatValue(v.Value))
							}
						}
						t.Logf("served %+v, all4 %.3f, wait in the outage: median %s, p95 %s", sum.Served, sum.All4Right,
							scoring.FormatValue(deref(sum.MedianWaitOutageS)), scoring.FormatValue(deref(sum.P95WaitOutageS)))
					})
				})
			}
		})
	}
}

// deref is a nullable figure as a check sees it: nil, or the number.
func deref(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}
