package session_test

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// TestBaselinePlaysTheDrillWithoutBreakers: the default baseline of the
// default drill (breaker policy) is the same drill without breakers, played
// on the virtual clock: its calls to the broken model are those of the
// fallback preset's run, and it is ready well before the live run's end.
func TestBaselinePlaysTheDrillWithoutBreakers(t *testing.T) {
	cfg := workload.DefaultConfig()
	b, err := session.StartBaseline(t.Context(), cfg, "no-breakers")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b.At(0, false); ok {
		t.Log("the baseline was ready at once") // allowed, though not expected
	}
	select {
	case <-b.Ready():
	case <-time.After(60 * time.Second):
		t.Fatal("the baseline did not play within 60 s")
	}
	if err := b.Err(); err != nil {
		t.Fatal(err)
	}
	early, ok := b.At(20*time.Second, false)
	if !ok || early.Complete || early.AtS != 20 {
		t.Errorf("at 20 s: %+v, ok %v: want the figures at 20 s, not complete", early, ok)
	}
	whole, _ := b.At(20*time.Second, true)
	fallback := cfg
	p, err := workload.Preset("fallback")
	if err != nil {
		t.Fatal(err)
	}
	fallback.Policy = p
	outs, err := session.Virtual(t.Context(), []workload.Config{fallback}, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := outs[0].Summary
	if whole.Basis != scoring.BaselineReplayed || !whole.Complete || whole.CallsToBrokenOutage != want.CallsToBrokenOutage ||
		whole.BreakerOpens != 0 || whole.Served != want.Served {
		t.Errorf("whole baseline %+v, want replayed, complete, no opens, %d calls and served %+v as the fallback preset's run",
			whole, want.CallsToBrokenOutage, want.Served)
	}
	if early.CallsToBrokenOutage >= whole.CallsToBrokenOutage {
		t.Errorf("at 20 s %d calls to broken, whole %d: the early figure should be part of the whole", early.CallsToBrokenOutage, whole.CallsToBrokenOutage)
	}
}

// TestBaselineAgainstRealModelsIsPredicted: a drill on a real endpoint
// cannot be replayed, so its baseline is the arithmetic, at once.
func TestBaselineAgainstRealModelsIsPredicted(t *testing.T) {
	cfg := workload.DefaultConfig()
	cfg.Endpoint.BaseURL = "http://127.0.0.1:9/v1"
	b, err := session.StartBaseline(t.Context(), cfg, "no-breakers")
	if err != nil {
		t.Fatal(err)
	}
	got, ok := b.At(time.Second, false)
	if !ok || got.Basis != scoring.BaselinePredicted || got.PredictedCallsToBroken == nil {
		t.Fatalf("baseline %+v (ready %v), want a prediction at once", got, ok)
	}
	if r := *got.PredictedCallsToBroken; r[1] < 100 {
		t.Errorf("predicted calls to broken %v without breakers, want the busy outage's ~148", r)
	}
}

// TestNoBaseline: --baseline none plays nothing, and a nil baseline has
// no figures and no error.
func TestNoBaseline(t *testing.T) {
	b, err := session.StartBaseline(t.Context(), workload.DefaultConfig(), "none")
	if err != nil || b != nil {
		t.Fatalf("none: %v, %v; want no baseline", b, err)
	}
	if b.Err() != nil || b.Final(t.Context(), scoring.Summary{}) != nil {
		t.Error("a nil baseline has an error or figures")
	}
}

// TestDrillRecordsItsBaseline: a drill with a baseline prints it in its
// summary and records it on the journal's summary line, where replay and
// the report find it (a replay cannot play it again from the log).
func TestDrillRecordsItsBaseline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	cfg := workload.DefaultConfig()
	cfg.Emails, cfg.Rate, cfg.Follow = 10, 10, 0
	cfg.OutageFrom, cfg.OutageTo = 200*time.Millisecond, 800*time.Millisecond
	res, err := session.Drill(t.Context(), cfg, session.Options{Journal: path, Baseline: "no-breakers"})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Summary.Baseline
	if b == nil || b.Basis != scoring.BaselineReplayed || b.Policy != "no-breakers" || b.EmailsSent != 10 {
		t.Fatalf("summary baseline %+v, want the replayed no-breakers run of 10 emails", b)
	}
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if j.Summary == nil {
		t.Fatal("the journal has no summary line")
	}
	if got := j.Summary.Summary.Baseline; !reflect.DeepEqual(got, b) {
		t.Errorf("journal baseline %+v, want the summary's %+v", got, b)
	}
}

// TestBaselineLeavesNoFile: the baseline's journal has no name once it
// is played (nothing is left in the temporary directory, however the
// drill ends), its figures are read from it, and Close lets it go.
func TestBaselineLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	cfg := workload.DefaultConfig()
	cfg.Emails, cfg.Follow = 20, 0
	b, err := session.StartBaseline(t.Context(), cfg, "no-breakers")
	if err != nil {
		t.Fatal(err)
	}
	<-b.Ready()
	if err := b.Err(); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Errorf("left in the temporary directory while the drill runs: %v", left)
	}
	part, _ := b.At(5*time.Second, false)
	b.Close()
	after, ok := b.At(5*time.Second, true)
	if !ok || after.EmailsSent != part.EmailsSent || after.Complete {
		t.Errorf("after Close: %+v (ok %v), want the figures folded before it (%d sent), not complete", after, ok, part.EmailsSent)
	}
	b.Close() // twice is harmless
}
