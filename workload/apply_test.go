package workload

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/control"
)

// TestApplyPlaysAsByHand: a commanded start is the dashboard's outage by
// hand with its command recorded; its For ends it; a second start while
// it is active conflicts; a repeated ID is applied once; a stop with
// nothing active says so; after the run, commands are refused.
func TestApplyPlaysAsByHand(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := chapterConfig(t, "none", "breaker")
		cfg.Emails, cfg.Follow = 20, 1
		r, err := Start(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Second)
		start := control.Command{ID: "c1", Op: control.OpStart, Fault: event.FaultSpec{Kind: "busy", Params: map[string]string{"status": "500"}},
			For: 3 * time.Second, Who: "ana@127.0.0.1:5000"}
		for range 2 {
			if err := r.Apply(start); err != nil {
				t.Fatal(err)
			}
		}
		start.ID = "c2"
		if err := r.Apply(start); !errors.Is(err, control.ErrConflict) {
			t.Errorf("a second start while one is active: %v, want ErrConflict", err)
		}
		if o := r.Outages(); len(o) != 1 || o[0].Command == nil || o[0].Command.ID != "c1" || o[0].Params["status"] != "500" {
			t.Errorf("outages %+v, want c1's busy with status 500", o)
		}
		time.Sleep(4 * time.Second)
		if err := r.Apply(control.Command{ID: "s1", Op: control.OpStop}); !errors.Is(err, control.ErrNoOutage) {
			t.Errorf("a stop after the outage's For: %v, want ErrNoOutage", err)
		}
		s, _, evs := finish(t, r)
		if err := r.Apply(control.Command{ID: "s2", Op: control.OpStop}); !errors.Is(err, control.ErrClosed) {
			t.Errorf("a command after the run: %v, want ErrClosed", err)
		}
		var outage []event.Event
		for _, e := range evs {
			if e.Kind == event.OutageStart || e.Kind == event.OutageEnd {
				outage = append(outage, e)
			}
		}
		if len(outage) != 2 {
			t.Fatalf("outage events %+v, want one start and one end", outage)
		}
		st, end := outage[0], outage[1]
		if st.Detail != event.ByHand || st.Command == nil || st.Command.Who != "ana@127.0.0.1:5000" || st.Window == nil || !st.Window.ByHand {
			t.Errorf("outage_start %+v, want by hand with the command", st)
		}
		if end.At != st.At+3*time.Second || end.Command == nil || end.Command.ID != "c1" {
			t.Errorf("outage_end at %s (start %s), command %+v; want 3s after the start, with c1", end.At, st.At, end.Command)
		}
		if s.CallsToBrokenOutage == 0 || s.Served.Total() != 20 {
			t.Errorf("commanded outage: calls to broken %d, served %+v", s.CallsToBrokenOutage, s.Served)
		}
	})
}
