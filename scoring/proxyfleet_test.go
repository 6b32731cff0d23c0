package scoring_test

import (
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// request is one finished proxied request of member m with id: its start,
// a fault when faulted, and its end.
func request(m string, id int, at time.Duration, fault string, outcome event.Outcome) []event.Event {
	pc := &event.ProxyCall{ID: id, Method: "POST", Path: "/v1/chat/completions"}
	evs := []event.Event{{At: at, Kind: event.AttemptStart, Rung: "upstream", Model: "gpt", Member: m, Proxy: pc}}
	if fault != "" {
		evs = append(evs, event.Event{At: at, Kind: event.Fault, Rung: "upstream", Fault: fault, Member: m, Proxy: pc})
	}
	return append(evs, event.Event{At: at + time.Millisecond, Kind: event.AttemptEnd, Rung: "upstream", Model: "gpt",
		Outcome: outcome, Member: m, Proxy: pc})
}

// TestProxyFleetFoldKeysByMemberAndID: two members number their requests
// from 1 alike; a fault on a's request 1 is a's only, lost members and
// link changes are counted per member and in the totals.
func TestProxyFleetFoldKeysByMemberAndID(t *testing.T) {
	var evs []event.Event
	evs = append(evs, event.Event{Kind: event.RunStart, Run: &event.RunInfo{Policy: "proxy"}})
	// Interleaved: a's request 1 is faulted while b's request 1 is not.
	a1, b1 := request("a", 1, time.Second, "busy", event.HTTP5xx), request("b", 1, time.Second, "", event.OK)
	evs = append(evs, a1[0], b1[0], a1[1], b1[1], a1[2])
	evs = append(evs, request("b", 2, 2*time.Second, "", event.OK)...)
	evs = append(evs, request("c", 1, 2*time.Second, "", event.OK)...)
	evs = append(evs,
		event.Event{At: 3 * time.Second, Kind: event.FleetLink, Member: "b", Detail: event.LinkDown},
		event.Event{At: 4 * time.Second, Kind: event.MemberLost, Member: "a", Fleet: &event.FleetNote{Lost: "c"}},
		event.Event{At: 5 * time.Second, Kind: event.MemberLost, Member: "b", Fleet: &event.FleetNote{Lost: "c"}},
		event.Event{At: 6 * time.Second, Kind: event.FleetLink, Member: "b", Detail: event.LinkUp, Fleet: &event.FleetNote{Held: 4, Dropped: 1}},
		event.Event{At: 7 * time.Second, Kind: event.RunEnd, Detail: "fleet stopped"})
	f := scoring.NewProxyFleetFold()
	f.AddAll(evs)

	ms := f.Members()
	if len(ms) != 3 || ms[0].ID != "a" || ms[1].ID != "b" || ms[2].ID != "c" {
		t.Fatalf("members = %v, want a, b, c", ms)
	}
	a, b, c := ms[0], ms[1], ms[2]
	if a.Tally.Requests != 1 || a.Tally.Failed != 1 || a.Faults() != 1 {
		t.Errorf("a: %d requests, %d failed, %d faulted; want 1, 1, 1", a.Tally.Requests, a.Tally.Failed, a.Faults())
	}
	if b.Tally.Requests != 2 || b.Tally.Failed != 0 || b.Faults() != 0 {
		t.Errorf("b: %d requests, %d failed, %d faulted; want 2, 0, 0 (a's fault on id 1 is not b's)", b.Tally.Requests, b.Tally.Failed, b.Faults())
	}
	if !c.Lost || c.LostBy != "a" || c.LostAt != 4*time.Second {
		t.Errorf("c: lost %v by %q at %v; want lost by a at 4s (the first to mark it)", c.Lost, c.LostBy, c.LostAt)
	}
	if b.LinkDown || b.LinkDowns != 1 || b.Held != 4 || b.Dropped != 1 {
		t.Errorf("b's link: down %v, %d downs, held %d, dropped %d; want up, 1, 4, 1", b.LinkDown, b.LinkDowns, b.Held, b.Dropped)
	}
	want := scoring.ProxyFleetTotals{Members: 3, Lost: 1, Requests: 4, Failed: 1, Faults: 1, Dropped: 1}
	if got := f.Totals(); got != want {
		t.Errorf("totals = %+v, want %+v", got, want)
	}
}

// TestProxyTallyFollowsTheFleetLink: a member's own tally (its dashboard)
// shows its link going down and up and the members it marked lost.
func TestProxyTallyFollowsTheFleetLink(t *testing.T) {
	tl := scoring.NewProxyTally()
	tl.Step(event.Event{Kind: event.FleetLink, Detail: event.LinkDown})
	if !tl.Fleet.Down || tl.Fleet.Downs != 1 {
		t.Fatalf("after down: %+v", tl.Fleet)
	}
	tl.Step(event.Event{Kind: event.FleetLink, Detail: event.LinkUp, Fleet: &event.FleetNote{Held: 7}})
	tl.Step(event.Event{Kind: event.MemberLost, Fleet: &event.FleetNote{Lost: "pod-c"}})
	if f := tl.Fleet; f.Down || f.Downs != 1 || f.Held != 7 || len(f.Lost) != 1 || f.Lost[0] != "pod-c" {
		t.Errorf("after up and a lost member: %+v", f)
	}
}
