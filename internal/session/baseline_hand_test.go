package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/workload"
)

// handDrill runs a short drill with no outage scheduled, its dashboard
// replaced by hand, which acts on the run at once and waits for its end.
func handDrill(t *testing.T, hand func(*workload.Run) error) session.Result {
	t.Helper()
	cfg := workload.DefaultConfig()
	cfg.Emails, cfg.Rate, cfg.Follow, cfg.Outage = 20, 10, 0, workload.OutageNone
	res, err := session.Drill(t.Context(), cfg, session.Options{Baseline: "no-breakers",
		Show: func(_ context.Context, run *workload.Run, _ *session.Baseline) error {
			if err := hand(run); err != nil {
				return err
			}
			<-run.Done()
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Baseline == nil {
		t.Fatal("no baseline in the summary")
	}
	return res
}

// TestBaselinePlaysAnOutageStartedByHand: an outage started by hand (the
// dashboard's o key) in a drill with no outage scheduled is played by the
// baseline too: without breakers it sends calls to the broken model. Before,
// the baseline never got the outage: "vs 0 without breakers".
func TestBaselinePlaysAnOutageStartedByHand(t *testing.T) {
	res := handDrill(t, func(run *workload.Run) error { return run.StartOutage("busy") })
	b := res.Summary.Baseline
	if !b.Replayed() || !b.Complete || b.NotComparable != "" {
		t.Fatalf("baseline %+v: want the whole replayed baseline, comparable", b)
	}
	if b.CallsToBrokenOutage == 0 || b.Served.Primary == b.EmailsAnswered {
		t.Errorf("baseline without breakers: %d calls to the broken model, served %+v; want the by-hand busy outage played",
			b.CallsToBrokenOutage, b.Served)
	}
}

// TestBaselineNotComparableAfterAPause: arrivals paused by hand cannot be
// replayed, so the baseline says it is not comparable, and why.
func TestBaselineNotComparableAfterAPause(t *testing.T) {
	res := handDrill(t, func(run *workload.Run) error {
		run.Pause()
		run.Resume()
		return nil
	})
	if got := res.Summary.Baseline.NotComparable; !strings.Contains(got, "paused by hand") {
		t.Errorf("baseline not comparable %q, want why: paused by hand", got)
	}
}
