package proxyfleet_test

import (
	"context"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/fleet/redisstore/redistest"
	"github.com/drill-dev/drill/internal/proxyfleet"
)

// TestCommandReachesEveryMemberOnce: a command sent once through Redis is
// applied by each of three members within 250 ms; the same command sent
// again (a sender retrying) is not applied twice.
func TestCommandReachesEveryMemberOnce(t *testing.T) {
	srv := redistest.Start(t)
	targets := []*fakeTarget{newFakeTarget(), newFakeTarget(), newFakeTarget()}
	for i, name := range []string{"a", "b", "c"} {
		log := event.NewLog(time.Now())
		m := join(t, srv.URL(), "drill1", name, log, targets[i])
		t.Cleanup(func() { log.Close(); _, _ = m.Close(context.Background()) })
	}
	cmd := control.Command{ID: "cmd-1", Op: control.OpStart, Fault: event.FaultSpec{Kind: "busy"}, Who: "test", Sent: time.Now()}
	sent := time.Now()
	if err := proxyfleet.Send(context.Background(), srv.URL(), "drill1", cmd); err != nil {
		t.Fatal(err)
	}
	var worst time.Duration
	for i, tg := range targets {
		select {
		case at := <-tg.at:
			worst = max(worst, at.Sub(sent))
		case <-time.After(5 * time.Second):
			t.Fatalf("member %d never applied the command", i)
		}
	}
	t.Logf("slowest of three members applied the command %v after it was sent", worst)
	if worst > 250*time.Millisecond {
		t.Errorf("the slowest member applied the command %v after it was sent, want within 250ms", worst)
	}
	if err := proxyfleet.Send(context.Background(), srv.URL(), "drill1", cmd); err != nil {
		t.Fatal(err)
	}
	stop := control.Command{ID: "cmd-2", Op: control.OpStop, Who: "test", Sent: time.Now()}
	if err := proxyfleet.Send(context.Background(), srv.URL(), "drill1", stop); err != nil {
		t.Fatal(err)
	}
	for i, tg := range targets {
		select {
		case <-tg.at:
		case <-time.After(5 * time.Second):
			t.Fatalf("member %d never applied the stop", i)
		}
		if got := tg.ids(); len(got) != 2 || got[0] != "cmd-1" || got[1] != "cmd-2" {
			t.Errorf("member %d applied %v, want [cmd-1 cmd-2] (each command once)", i, got)
		}
	}
}

// TestPlanIsSetOnce: the first member's plan is the fleet's; a later
// member proposing another joins the first.
func TestPlanIsSetOnce(t *testing.T) {
	srv := redistest.Start(t)
	start := time.Now().Truncate(time.Millisecond)
	first := proxyfleet.Plan{Start: start, By: "a", Windows: []event.Window{{FaultSpec: event.FaultSpec{Kind: "busy"}, From: time.Second, To: 2 * time.Second}}}
	got, joined, err := proxyfleet.Agree(context.Background(), srv.URL(), "drill1", first)
	if err != nil || joined || !got.Start.Equal(start) {
		t.Fatalf("first Agree = %+v, joined %v, %v; want its own plan", got, joined, err)
	}
	late := proxyfleet.Plan{Start: start.Add(time.Minute), By: "b"}
	got, joined, err = proxyfleet.Agree(context.Background(), srv.URL(), "drill1", late)
	if err != nil || !joined || !got.Start.Equal(start) || got.By != "a" || len(got.Windows) != 1 || got.Windows[0].Kind != "busy" {
		t.Fatalf("late Agree = %+v, joined %v, %v; want a's plan", got, joined, err)
	}
}
