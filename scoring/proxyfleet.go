package scoring

import (
	"slices"
	"time"

	"github.com/drill-dev/drill/event"
)

// ProxyFleetFold folds a proxy fleet's events (drill proxy --coordinate),
// each tagged with the member it happened on: one ProxyTally per member, so
// request ids, which every member numbers from 1, are keyed by (member,
// id) and never meet; which members were marked lost; and each member's
// link to the fleet's Redis. The live fleet view and a pulled journal's
// figures both come from here. Not safe for concurrent use.
type ProxyFleetFold struct {
	members map[string]*ProxyFleetMember
}

// ProxyFleetMember is one member's part of a proxy fleet.
type ProxyFleetMember struct {
	// ID is the member's name (--member).
	ID string
	// Tally is the member's own requests, as drill proxy folds them.
	Tally *ProxyTally
	// Lost is true once a member marked this one lost (its heartbeat
	// expired); LostBy names who did ("" for drill watch), LostAt when.
	Lost   bool
	LostBy string
	LostAt time.Duration
	// LinkDown is true while the member's link to Redis is down;
	// LinkDowns counts the times it went down.
	LinkDown  bool
	LinkDowns int
	// Held and Dropped are the events the member held while its link was
	// down and sent on its return, and those its full buffer dropped.
	Held, Dropped int
	// Last is the offset of the member's latest event.
	Last time.Duration
}

// ProxyFleetTotals are a proxy fleet's figures summed over its members.
type ProxyFleetTotals struct {
	Members, Lost, LinkDown int
	// Requests and Failed are finished requests and those not ok; Faults
	// those the proxy faulted.
	Requests, Failed, Faults int
	// Dropped counts events dropped by members' full buffers.
	Dropped int
}

// NewProxyFleetFold returns an empty proxy fleet fold.
func NewProxyFleetFold() *ProxyFleetFold {
	return &ProxyFleetFold{members: map[string]*ProxyFleetMember{}}
}

// member returns member id's part, made on first sight.
func (f *ProxyFleetFold) member(id string) *ProxyFleetMember {
	m := f.members[id]
	if m == nil {
		m = &ProxyFleetMember{ID: id, Tally: NewProxyTally()}
		f.members[id] = m
	}
	return m
}

// Add folds one event of the fleet, in the order its events stream holds
// them. Events of no member (the fleet's own run start and end) change no
// member.
func (f *ProxyFleetFold) Add(e event.Event) {
	if e.Kind == event.MemberLost && e.Fleet != nil && e.Fleet.Lost != "" {
		// Recorded by a member or, with no member, by drill watch.
		lost := f.member(e.Fleet.Lost)
		if !lost.Lost {
			lost.Lost, lost.LostBy, lost.LostAt = true, e.Member, e.At
		}
	}
	if e.Member == "" {
		return
	}
	m := f.member(e.Member)
	m.Last = max(m.Last, e.At)
	switch e.Kind {
	case event.MemberLost:
	case event.FleetLink:
		switch e.Detail {
		case event.LinkDown:
			if !m.LinkDown {
				m.LinkDowns++
			}
			m.LinkDown = true
		case event.LinkUp:
			m.LinkDown = false
			if e.Fleet != nil {
				m.Held += e.Fleet.Held
				m.Dropped += e.Fleet.Dropped
			}
		}
	default:
		m.Tally.Step(e)
	}
}

// AddAll folds events in order.
func (f *ProxyFleetFold) AddAll(events []event.Event) {
	for _, e := range events {
		f.Add(e)
	}
}

// Members are the members seen so far, by name.
func (f *ProxyFleetFold) Members() []*ProxyFleetMember {
	out := make([]*ProxyFleetMember, 0, len(f.members))
	for _, m := range f.members {
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b *ProxyFleetMember) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
	return out
}

// Member is member id's part, if the fold has seen it.
func (f *ProxyFleetFold) Member(id string) (*ProxyFleetMember, bool) {
	m, ok := f.members[id]
	return m, ok
}

// Faults counts the member's finished requests the proxy faulted.
func (m *ProxyFleetMember) Faults() int {
	n := 0
	for _, mt := range m.Tally.Models {
		n += mt.Faults
	}
	return n
}

// Totals are the fleet's figures: every member's summed.
func (f *ProxyFleetFold) Totals() ProxyFleetTotals {
	var t ProxyFleetTotals
	for _, m := range f.members {
		t.Members++
		if m.Lost {
			t.Lost++
		}
		if m.LinkDown {
			t.LinkDown++
		}
		t.Requests += m.Tally.Requests
		t.Failed += m.Tally.Failed
		t.Faults += m.Faults()
		t.Dropped += m.Dropped
	}
	return t
}
