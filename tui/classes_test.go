package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
)

// routedEvents are a short run with routes: emails 1-4, email 2 a safety
// email handed over, the others default.
func routedEvents() []event.Event {
	evs := []event.Event{{Kind: event.RunStart, Run: &event.RunInfo{Outage: "busy", Policy: "fail-fast", Emails: 4, Rate: 2,
		OutageFromS: 1, OutageToS: 3, Routes: []event.RouteInfo{{Class: "safety", Policy: "fail-fast", Hold: event.HoldPerson}, {Class: "default", Policy: "fail-fast"}}}}}
	for id := 1; id <= 4; id++ {
		class := "default"
		if id == 2 {
			class = "safety"
		}
		at := time.Duration(id-1) * 500 * time.Millisecond
		evs = append(evs, event.Event{Kind: event.EmailSent, At: at, Email: id, Class: class})
		res := &event.Result{ServedBy: event.ServedPrimary, Wait: time.Second}
		if id == 2 {
			res = &event.Result{ServedBy: event.ServedHandedOver, Handover: &event.Handover{Mode: event.HoldPerson, Reason: "breaker_open"}}
		}
		evs = append(evs, event.Event{Kind: event.EmailDone, At: at + res.Wait, Email: id, Result: res})
	}
	for i := range evs {
		evs[i].Seq = int64(i)
	}
	return evs
}

// TestEmailsPaneClassColumnAndFilter: a run with routes shows each
// email's class and handed-over tag; "class safety" filters to its emails.
func TestEmailsPaneClassColumnAndFilter(t *testing.T) {
	s := newState(nil)
	s.addAll(routedEvents())
	p := newEmailsPane()
	p.SetSize(rect{w: 100, h: 10})
	st := asciiStyles()
	p.refresh(st, s, 3*time.Second)
	text := strings.Join(p.content, "\n")
	for _, want := range []string{"class", "safety", "default"} {
		if !strings.Contains(text, want) {
			t.Errorf("the pane lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(text, " H ") {
		t.Errorf("the handed-over email has no H tag:\n%s", text)
	}
	if !validFilter("class safety") || validFilter("class ") {
		t.Error("class filters are not read")
	}
	p.setFilter("class safety")
	p.refresh(st, s, 3*time.Second)
	if n := p.count(s); n != 1 || p.at(s, 0).ID != 2 {
		t.Errorf("class safety lists %d emails", n)
	}
	if !strings.Contains(p.title, "filter class safety: 1 of 4") {
		t.Errorf("title %q", p.title)
	}
	p.setFilter("handed")
	if n := p.count(s); n != 1 {
		t.Errorf("handed lists %d emails", n)
	}

	plainRun := newState(nil)
	evs := routedEvents()
	evs[0].Run.Routes = nil
	plainRun.addAll(evs)
	q := newEmailsPane()
	q.SetSize(rect{w: 100, h: 10})
	q.refresh(st, plainRun, 3*time.Second)
	if strings.Contains(strings.Join(q.content, "\n"), "class") {
		t.Error("a run without routes has a class column")
	}
}
