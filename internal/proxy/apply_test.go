package proxy

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/fakemodel"
)

// inBubble returns a proxy in front of the fake model, without latency,
// for a synctest bubble: requests go through serve, no sockets.
func inBubble(t *testing.T, ws ...event.Window) *Proxy {
	t.Helper()
	u, _ := url.Parse("http://fake.invalid/v1")
	p, err := New(Options{Upstream: u, Transport: fakemodel.New(fakemodel.Options{NoLatency: true}).Transport(), Windows: ws})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// serve sends one chat completion for model through p and returns the
// status the client got.
func serve(p *Proxy, model string) int {
	body := fmt.Sprintf(`{"model":%q,"messages":[{"role":"user","content":"hi"}]}`, model)
	w := httptest.NewRecorder()
	p.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(body)))
	return w.Code
}

func startCmd(id, kind string, d time.Duration, models ...string) control.Command {
	return control.Command{ID: id, Op: control.OpStart, Fault: event.FaultSpec{Kind: kind}, For: d, Models: models, Who: "ana@127.0.0.1:5000"}
}

// TestApplyStartPlaysLikeByHand: a commanded start is an outage by hand
// with its command recorded, and its For ends it by itself.
func TestApplyStartPlaysLikeByHand(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := inBubble(t)
		if err := p.Apply(startCmd("c1", "busy", 2*time.Second)); err != nil {
			t.Fatal(err)
		}
		during := serve(p, fakemodel.ModelMini)
		if got := p.Outages(); len(got) != 1 || got[0].Command == nil || got[0].Command.ID != "c1" || got[0].To != 2*time.Second {
			t.Errorf("outages during = %+v, want the command's, ending at 2s", got)
		}
		time.Sleep(3 * time.Second)
		synctest.Wait()
		after := serve(p, fakemodel.ModelMini)
		if during != 503 || after != 200 {
			t.Errorf("statuses %d then %d, want 503 during the outage and 200 after its 2s", during, after)
		}
		if got := p.Outages(); len(got) != 0 {
			t.Errorf("outages after = %+v, want none", got)
		}
		p.Close("test over")
		evs := p.Log().Events()
		starts, ends := kinds(evs, event.OutageStart), kinds(evs, event.OutageEnd)
		if len(starts) != 1 || len(ends) != 1 {
			t.Fatalf("outage events %+v %+v, want one start and one end", starts, ends)
		}
		s, e := starts[0], ends[0]
		if s.Detail != event.ByHand || s.Command == nil || s.Command.Who != "ana@127.0.0.1:5000" || s.Command.For != 2*time.Second {
			t.Errorf("outage_start %+v (command %+v), want by hand with the command", s, s.Command)
		}
		if e.At != 2*time.Second || e.Window == nil || e.Window.To != 2*time.Second || e.Command == nil || e.Command.ID != "c1" {
			t.Errorf("outage_end at %s, window %+v, command %+v; want at 2s with the command", e.At, e.Window, e.Command)
		}
	})
}

// TestApplyDedupesAndStops: a repeated ID is applied once; a stop ends
// every outage (scheduled too), and a stop with nothing active says so.
func TestApplyDedupesAndStops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := inBubble(t, event.Window{FaultSpec: event.FaultSpec{Kind: "hang"}, From: time.Second, To: time.Hour})
		time.Sleep(2 * time.Second)
		for range 3 {
			if err := p.Apply(startCmd("c1", "busy", 0)); err != nil {
				t.Fatal(err)
			}
		}
		if got := len(p.Outages()); got != 2 {
			t.Errorf("%d outages active, want 2 (the schedule's and one commanded)", got)
		}
		stop := control.Command{ID: "s1", Op: control.OpStop, Who: "127.0.0.1:5001"}
		if err := p.Apply(stop); err != nil {
			t.Fatal(err)
		}
		if err := p.Apply(stop); err != nil {
			t.Errorf("the same stop again: %v, want nil (applied once)", err)
		}
		stop.ID = "s2"
		if err := p.Apply(stop); !errors.Is(err, control.ErrNoOutage) {
			t.Errorf("a stop with nothing active: %v, want ErrNoOutage", err)
		}
		if code := serve(p, fakemodel.ModelMini); code != 200 {
			t.Errorf("status %d after the stop, want 200", code)
		}
		p.Close("test over")
		evs := p.Log().Events()
		starts, ends := kinds(evs, event.OutageStart), kinds(evs, event.OutageEnd)
		if len(starts) != 2 || len(ends) != 2 {
			t.Fatalf("%d starts, %d ends, want 2 and 2", len(starts), len(ends))
		}
		for _, e := range ends {
			if e.Command == nil || e.Command.ID != "s1" || e.Detail != event.ByHand {
				t.Errorf("outage_end %+v (command %+v), want by hand with stop s1", e, e.Command)
			}
		}
	})
}

// TestApplyModelsLimitIt: a commanded outage with models spares requests
// for any other model.
func TestApplyModelsLimitIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := inBubble(t)
		defer p.Close("test over")
		if err := p.Apply(startCmd("c1", "busy", time.Minute, fakemodel.ModelMini)); err != nil {
			t.Fatal(err)
		}
		if mini, nano := serve(p, fakemodel.ModelMini), serve(p, fakemodel.ModelNano); mini != 503 || nano != 200 {
			t.Errorf("statuses %d (%s) and %d (%s), want 503 and 200", mini, fakemodel.ModelMini, nano, fakemodel.ModelNano)
		}
		if o := p.Outages(); len(o) != 1 || len(o[0].Models) != 1 || o[0].Models[0] != fakemodel.ModelMini {
			t.Errorf("outages %+v, want one limited to %s", o, fakemodel.ModelMini)
		}
	})
}

// TestApplyRefuses: bad commands are ErrInvalid (an unknown kind lists the
// valid ones), starts past MaxCommanded ErrLimit, and any after Close
// ErrClosed.
func TestApplyRefuses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := inBubble(t)
		for _, c := range []control.Command{startCmd("c1", "flood", 0), startCmd("", "busy", 0), startCmd("c2", "busy", -time.Second),
			{ID: "c3", Op: "pause"}, {ID: "c4", Op: control.OpStart, Fault: event.FaultSpec{Kind: "busy", Params: map[string]string{"models": "primary"}}}} {
			if err := p.Apply(c); !errors.Is(err, control.ErrInvalid) {
				t.Errorf("%+v: %v, want ErrInvalid", c, err)
			}
		}
		if err := p.Apply(startCmd("c1", "flood", 0)); err == nil || !strings.Contains(err.Error(), "busy, hang") {
			t.Errorf("unknown kind: %v, want the valid kinds listed", err)
		}
		for i := range control.MaxCommanded {
			if err := p.Apply(startCmd(fmt.Sprint("n", i), "busy", 0)); err != nil {
				t.Fatalf("start %d: %v", i, err)
			}
		}
		if err := p.Apply(startCmd("one-more", "busy", 0)); !errors.Is(err, control.ErrLimit) {
			t.Errorf("start %d: %v, want ErrLimit", control.MaxCommanded+1, err)
		}
		p.Close("test over")
		if err := p.Apply(control.Command{ID: "late", Op: control.OpStop}); !errors.Is(err, control.ErrClosed) {
			t.Errorf("after Close: %v, want ErrClosed", err)
		}
	})
}
