package proxyfleet_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fleet/redisstore/redistest"
	"github.com/drill-dev/drill/internal/proxyfleet"
	"github.com/drill-dev/drill/internal/testwait"
)

// appendRequests appends n finished requests to log, numbered from id.
func appendRequests(log *event.Log, id, n int) {
	for i := range n {
		pc := &event.ProxyCall{ID: id + i, Method: "POST", Path: "/v1/chat/completions"}
		log.Append(event.Event{Kind: event.AttemptStart, Rung: "upstream", Proxy: pc})
		log.Append(event.Event{Kind: event.AttemptEnd, Rung: "upstream", Outcome: event.OK, Proxy: pc})
	}
}

// pulledSeqs are the sequence numbers of member's pulled events.
func pulledSeqs(p proxyfleet.Pulled, member string) []int64 {
	var seqs []int64
	for _, e := range p.Events {
		if e.Member == member {
			seqs = append(seqs, e.Seq)
		}
	}
	return seqs
}

// TestRedisKilledAndRestartedLosesNoEvents: Redis (with an append-only
// file) is killed while three members run and record requests, then
// restarted. Each member says its link went down and came back, and the
// fleet's events stream ends up holding every event of every member's log,
// once and in order.
func TestRedisKilledAndRestartedLosesNoEvents(t *testing.T) {
	srv := redistest.StartPersistent(t)
	names := []string{"a", "b", "c"}
	logs := map[string]*event.Log{}
	members := map[string]*proxyfleet.Member{}
	for _, name := range names {
		logs[name] = event.NewLog(time.Now())
		members[name] = join(t, srv.URL(), "drill1", name, logs[name], newFakeTarget())
		appendRequests(logs[name], 1, 20)
	}
	testwait.For(t, "the first 120 events in Redis", func() bool {
		p, err := proxyfleet.Pull(context.Background(), srv.URL(), "drill1")
		return err == nil && len(p.Events) == 120
	})
	srv.Kill()
	for _, name := range names {
		appendRequests(logs[name], 21, 30)
	}
	for _, name := range names {
		testwait.For(t, name+"'s fleet_link down", func() bool {
			return has(logs[name], event.FleetLink, func(e event.Event) bool { return e.Detail == event.LinkDown })
		})
	}
	appendRequests(logs["a"], 51, 5) // after the link went down: held
	srv.Restart()
	for _, name := range names {
		testwait.For(t, name+"'s fleet_link up", func() bool {
			return has(logs[name], event.FleetLink, func(e event.Event) bool { return e.Detail == event.LinkUp })
		})
	}
	for _, name := range names {
		logs[name].Close()
		unsent, err := members[name].Close(context.Background())
		if err != nil || unsent != 0 {
			t.Errorf("member %s: Close = %d unsent, %v; want 0, nil", name, unsent, err)
		}
	}
	p, err := proxyfleet.Pull(context.Background(), srv.URL(), "drill1")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		want := logs[name].Events()
		got := pulledSeqs(p, name)
		if len(got) != len(want) {
			t.Errorf("member %s: Redis holds %d events, its log %d", name, len(got), len(want))
			continue
		}
		for i, s := range got {
			if s != int64(i) {
				t.Errorf("member %s: pulled event %d has seq %d: events lost, repeated or out of order", name, i, s)
				break
			}
		}
		up := want[len(want)-1]
		for _, e := range want {
			if e.Kind == event.FleetLink && e.Detail == event.LinkUp {
				up = e
			}
		}
		if up.Fleet == nil || up.Fleet.Held == 0 || up.Fleet.Dropped != 0 {
			t.Errorf("member %s: fleet_link up says %+v, want events held and none dropped", name, up.Fleet)
		}
	}
}

// TestSilentMemberIsMarkedLost: a member that stops heartbeating (as a
// killed process would) is marked lost, once, by a member still running;
// a member that left with Close is not.
func TestSilentMemberIsMarkedLost(t *testing.T) {
	srv := redistest.Start(t)
	logA, logB, logC := event.NewLog(time.Now()), event.NewLog(time.Now()), event.NewLog(time.Now())
	a := join(t, srv.URL(), "drill1", "a", logA, newFakeTarget())
	b := join(t, srv.URL(), "drill1", "b", logB, newFakeTarget())
	c := join(t, srv.URL(), "drill1", "c", logC, newFakeTarget())
	logC.Close()
	if _, err := c.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	b.Abandon()
	testwait.For(t, "a marking b lost", func() bool {
		return has(logA, event.MemberLost, func(e event.Event) bool { return e.Fleet != nil && e.Fleet.Lost == "b" })
	})
	logA.Close()
	if _, err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	var lost []string
	for _, e := range logA.Events() {
		if e.Kind == event.MemberLost {
			lost = append(lost, e.Fleet.Lost)
		}
	}
	if fmt.Sprint(lost) != "[b]" {
		t.Errorf("a marked %v lost, want [b] (c left, it was not lost)", lost)
	}
	got, err := proxyfleet.MarkLost(context.Background(), srv.URL(), "drill1")
	if err != nil || len(got) != 0 {
		t.Errorf("a watcher then marked %v lost (%v), want none: b is marked once", got, err)
	}
}
