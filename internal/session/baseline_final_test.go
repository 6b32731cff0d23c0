package session

import (
	"context"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// TestFinalDoesNotWaitForAStoppedRun: a live run stopped early (q in the
// dashboard, which cancels no context) gets its summary at once, without a
// baseline still playing; it waited for the whole baseline, seconds for a
// large drill, so quitting seemed to hang. A completed run still waits.
func TestFinalDoesNotWaitForAStoppedRun(t *testing.T) {
	b := &Baseline{name: "no-breakers", cancel: func() {}, cur: &baselinePlay{ready: make(chan struct{}), cancel: func() {}}}
	got := make(chan *scoring.BaselineSummary, 1)
	go func() {
		got <- b.Final(context.Background(), scoring.Summary{Status: event.StatusInterrupted, WallS: 12})
	}()
	select {
	case s := <-got:
		if s != nil {
			t.Errorf("a baseline still playing gave figures %+v", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Final waited for a baseline still playing after the run was stopped")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.Final(ctx, scoring.Summary{Status: event.StatusCompleted, WallS: 60})
	}()
	select {
	case <-done:
		t.Error("a completed run's Final did not wait for its baseline")
	case <-time.After(50 * time.Millisecond):
	}
	cancel()
	<-done
}
