package workload

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
)

// TestEveryWindowIsLogged: a timeline of two windows on different models
// logs a start and an end for each, at its offsets, with its index and
// rung, and the fold pairs each end with its own start even when the
// windows overlap.
func TestEveryWindowIsLogged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := chapterConfig(t, "busy", "fallback")
		cfg.Emails, cfg.Follow = 40, 0
		cfg.Outages = []event.Window{
			{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 5 * time.Second, To: 15 * time.Second, Models: []string{event.ServedPrimary}},
			{FaultSpec: event.FaultSpec{Kind: "hang"}, From: 10 * time.Second, To: 12 * time.Second, Models: []string{event.ServedBackup},
				Flap: &event.Flap{On: time.Second, Off: time.Second}},
		}
		cfg.OutageFrom, cfg.OutageTo = 5*time.Second, 15*time.Second
		sum, status, evs := runDrill(t, cfg)
		if status != event.StatusCompleted {
			t.Fatalf("status %s", status)
		}
		type mark struct {
			kind  event.Kind
			at    time.Duration
			fault string
			rung  string
			index int
		}
		var got []mark
		for _, e := range evs {
			if e.Kind == event.OutageStart || e.Kind == event.OutageEnd {
				got = append(got, mark{e.Kind, e.At, e.Fault, e.Rung, e.Window.Index})
			}
		}
		want := []mark{
			{event.OutageStart, 5 * time.Second, "busy", "primary", 0},
			{event.OutageStart, 10 * time.Second, "hang", "backup", 1},
			{event.OutageEnd, 12 * time.Second, "hang", "backup", 1},
			{event.OutageEnd, 15 * time.Second, "busy", "primary", 0},
		}
		if len(got) != len(want) {
			t.Fatalf("outage events %+v, want %+v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("outage event %d: %+v, want %+v", i, got[i], want[i])
			}
		}
		if len(sum.OutageWindows) != 2 {
			t.Fatalf("summary windows %+v", sum.OutageWindows)
		}
		for i, w := range []struct {
			rung       string
			start, end float64
		}{{"primary", 5, 15}, {"backup", 10, 12}} {
			ws := sum.OutageWindows[i]
			if ws.Rung != w.rung || ws.StartS != w.start || ws.EndS == nil || *ws.EndS != w.end {
				t.Errorf("window %d: %s %v–%v, want %s %v–%v", i, ws.Rung, ws.StartS, ws.EndS, w.rung, w.start, w.end)
			}
		}
	})
}

// TestEndingByHandEndsEveryOpenWindow: EndOutage closes each scheduled
// window still open, each with its own index, and the fold closes both.
func TestEndingByHandEndsEveryOpenWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := chapterConfig(t, "busy", "fallback")
		cfg.Emails, cfg.Follow = 30, 0
		cfg.Outages = []event.Window{
			{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 2 * time.Second, To: 20 * time.Second},
			{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 3 * time.Second, To: 20 * time.Second, Models: []string{event.ServedBackup}},
		}
		cfg.OutageFrom, cfg.OutageTo = 2*time.Second, 20*time.Second
		r, err := Start(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Second)
		if !r.OutageActive() {
			t.Fatal("no outage active at 5 s")
		}
		r.EndOutage()
		if r.OutageActive() {
			t.Fatal("an outage is still active after EndOutage")
		}
		sum, _, evs := finish(t, r)
		ends := map[int]bool{}
		for _, e := range evs {
			if e.Kind == event.OutageEnd {
				if e.At != 5*time.Second || !e.Window.ByHand || ends[e.Window.Index] {
					t.Errorf("outage_end %+v at %s", e.Window, e.At)
				}
				ends[e.Window.Index] = true
			}
		}
		if !ends[0] || !ends[1] || len(ends) != 2 {
			t.Errorf("ends %v, want windows 0 and 1", ends)
		}
		for _, ws := range sum.OutageWindows {
			if ws.EndS == nil || *ws.EndS != 5 {
				t.Errorf("window %+v not closed at 5 s", ws)
			}
		}
	})
}
