package journal_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
)

// TestCommandRoundTrips checks an outage started and ended by a control
// command keeps its command (id, who, duration, models) through the
// journal's writer and reader.
func TestCommandRoundTrips(t *testing.T) {
	cmd := &event.Command{ID: "c-1", Who: "ana@127.0.0.1:51000", For: 30 * time.Second, Models: []string{"gpt-a", "gpt-b"}}
	w := &event.Window{FaultSpec: event.FaultSpec{Kind: "hang"}, From: time.Second, To: -1, ByHand: true, Index: 1}
	evs := []event.Event{
		{Seq: 0, Kind: event.RunStart, Run: &event.RunInfo{Outage: "none", Policy: "proxy", Target: "upstream"}},
		{Seq: 1, At: time.Second, Kind: event.OutageStart, Rung: "upstream", Fault: "hang", Detail: event.ByHand, Window: w, Command: cmd},
		{Seq: 2, At: 2 * time.Second, Kind: event.OutageEnd, Rung: "upstream", Fault: "hang", Detail: event.ByHand,
			Command: &event.Command{ID: "c-2", Who: "127.0.0.1:51001"}},
		{Seq: 3, At: 3 * time.Second, Kind: event.RunEnd, Detail: "proxy stopped"},
	}
	j, err := journal.ReadFile(writeJournal(t, evs, event.StatusCompleted))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(j.Events, evs) {
		t.Fatalf("events differ after the round trip:\n got %+v\nwant %+v", j.Events, evs)
	}
	if got := j.Events[1].Command; got == nil || got.Who != cmd.Who || got.For != cmd.For {
		t.Errorf("outage_start's command = %+v, want %+v", got, cmd)
	}
}
