package journal_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
)

// TestProxyFleetFieldsRoundTrip: a proxy fleet's member tags, its link
// going down and up and a member marked lost come back from a journal as
// they were written, through both of the writer's encoders.
func TestProxyFleetFieldsRoundTrip(t *testing.T) {
	evs := []event.Event{
		{Seq: 0, Kind: event.RunStart, Run: &event.RunInfo{Policy: "proxy", Outage: "none"}},
		{Seq: 1, At: time.Second, Kind: event.AttemptStart, Rung: "upstream", Member: "a", Proxy: &event.ProxyCall{ID: 1, Method: "POST", Path: "/v1/chat/completions"}},
		{Seq: 2, At: 2 * time.Second, Kind: event.EmailSent, Email: 3, Member: "b"},
		{Seq: 3, At: 3 * time.Second, Kind: event.FleetLink, Member: "a", Detail: event.LinkDown, Fleet: &event.FleetNote{Reason: "connection refused"}},
		{Seq: 4, At: 4 * time.Second, Kind: event.FleetLink, Member: "a", Detail: event.LinkUp, Fleet: &event.FleetNote{Held: 12, Dropped: 3}},
		{Seq: 5, At: 5 * time.Second, Kind: event.MemberLost, Member: "b", Fleet: &event.FleetNote{Lost: "c"}},
		{Seq: 6, At: 6 * time.Second, Kind: event.RunEnd, Detail: "proxy stopped"},
	}
	path := writeJournal(t, evs, event.StatusCompleted)
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(j.Events, evs) {
		for i := range min(len(evs), len(j.Events)) {
			if !reflect.DeepEqual(j.Events[i], evs[i]) {
				t.Errorf("event %d = %+v, want %+v", i, j.Events[i], evs[i])
			}
		}
		t.Fatalf("events differ after the round trip: got %d, want %d", len(j.Events), len(evs))
	}
}
