package tui

import (
	"bytes"
	"context"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/scoring"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/workload"
)

// TestSmokeLiveDrill drives a short real drill against the in-process fake
// model through the whole program: every pane shows, the summary row
// appears at the end, and q quits.
func TestSmokeLiveDrill(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a real drill of a few seconds")
	}
	cfg := workload.DefaultConfig()
	cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
	cfg.Emails, cfg.Rate, cfg.Follow = 8, 8, 3
	cfg.OutageFrom, cfg.OutageTo = 200*time.Millisecond, 700*time.Millisecond
	p, err := workload.Preset("fail-fast")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Policy = p
	cfg.MaxDuration = 20 * time.Second
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run, err := workload.Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { run.Stop(); <-run.Done() }()

	m := newModel(asciiStyles(), &liveFeed{log: run.Log(), cur: run.Log().Cursor()}, run, 50*time.Millisecond, nil)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("Summary")) && bytes.Contains(b, []byte("ENDED"))
	}, teatest.WithDuration(25*time.Second), teatest.WithCheckInterval(50*time.Millisecond))
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))

	final := tm.FinalModel(t).(*Model)
	if !final.done {
		t.Error("the model did not see the end of the drill")
	}
	all := []byte(final.frame())
	for _, title := range []string{"Emails", "Breaker", "Calls", "Quality", "Summary"} {
		if !bytes.Contains(all, []byte(title)) {
			t.Errorf("final frame lacks %q", title)
		}
	}
	status := run.Wait()
	if status != event.StatusCompleted {
		t.Fatalf("run ended %q", status)
	}
	sum := scoring.Summarize(run.Log().Events())
	if final.s.summary.Served != sum.Served || final.s.summary.CallsToBrokenOutage != sum.CallsToBrokenOutage {
		t.Errorf("dashboard summary %+v differs from the run's %+v", final.s.summary, sum)
	}
}
