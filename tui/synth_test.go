package tui

import (
	"fmt"
	"sort"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

func sec(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// synthRun builds a plausible hang drill of n emails sent 2 a second, with
// the fail-fast policy: an outage from 15 s to 40 s, a breaker that opens
// at 19.5 s, fails two probes and closes at 41.7 s, backup retries, some
// wrong answers. Every event is in log order with Seq set.
func synthRun(n int) []event.Event {
	type ev struct {
		e     event.Event
		order int
	}
	var evs []ev
	add := func(at float64, e event.Event) {
		e.At = sec(at)
		evs = append(evs, ev{e, len(evs)})
	}
	info := &event.RunInfo{
		Outage: "hang", Policy: "fail-fast", Emails: n, Rate: 2, Target: "primary",
		OutageFromS: 15, OutageToS: 40, Follow: 35, TimeLimitScope: "attempt",
		Rungs: []event.Rung{
			{Name: "primary", Model: "gpt-5.4-mini", TimeLimit: 3 * time.Second, Retries: 0, HasBreaker: true},
			{Name: "backup", Model: "gpt-5.4-nano", TimeLimit: 5 * time.Second, Retries: 2},
			{Name: "canned"},
		},
	}
	add(0, event.Event{Kind: event.RunStart, Run: info})
	window := &event.Window{From: 15 * time.Second, To: 40 * time.Second}
	add(15, event.Event{Kind: event.OutageStart, Fault: "hang", Rung: "primary", Window: window})
	add(40, event.Event{Kind: event.OutageEnd, Fault: "hang", Rung: "primary", Window: window})
	brk := func(at float64, from, to, why string, gen uint64) {
		add(at, event.Event{Kind: event.BreakerChange, Rung: "primary", Breaker: &event.BreakerState{
			Name: "primary", From: from, To: to, Generation: gen, Failures: 5, Reason: why}})
	}
	brk(19.5, "closed", "open", "5 failures in 10 s", 1)
	brk(24.5, "open", "half-open", "cooldown over", 2)
	brk(27.5, "half-open", "open", "probe failed", 3)
	brk(32.5, "open", "half-open", "cooldown over", 4)
	brk(35.5, "half-open", "open", "probe failed", 5)
	brk(40.5, "open", "half-open", "cooldown over", 6)
	brk(41.7, "half-open", "closed", "probe ok", 7)
	state := func(t float64) string {
		switch {
		case t < 19.5, t >= 41.7:
			return "closed"
		case t >= 24.5 && t < 27.5, t >= 32.5 && t < 35.5, t >= 40.5:
			return "half-open"
		}
		return "open"
	}
	probe := map[float64]bool{24.5: true, 32.5: true, 40.5: true}
	answer := func(id int, rung string) *emails.Answer {
		e, ok := emails.ByID(id)
		if !ok {
			a := emails.Answer{Intent: "question"}
			return &a
		}
		a := e.Truth
		if rung == "backup" && id%4 == 0 {
			a.Urgency = "high"
			if a.Urgency == e.Truth.Urgency {
				a.Urgency = "low"
			}
		}
		if rung == "primary" && id%25 == 0 {
			a.Product = "tent"
			if a.Product == e.Truth.Product {
				a.Product = "stove"
			}
		}
		return &a
	}
	for id := 1; id <= n; id++ {
		t := float64(id-1) * 0.5
		sent := event.Event{Kind: event.EmailSent, Email: id}
		if e, ok := emails.ByID(id); ok {
			sent.Truth = &e.Truth // as a real drill's email_sent carries it
		}
		add(t, sent)
		end, served := 0.0, ""
		backup := func(at float64) {
			add(at, event.Event{Kind: event.RungStart, Email: id, Rung: "backup", Model: "gpt-5.4-nano"})
			add(at, event.Event{Kind: event.AttemptStart, Email: id, Rung: "backup", Model: "gpt-5.4-nano"})
			done := at + 1.5
			if id%7 == 0 {
				add(at+0.4, event.Event{Kind: event.AttemptEnd, Email: id, Rung: "backup", Model: "gpt-5.4-nano", Outcome: event.HTTP5xx, Status: 503})
				add(at+0.9, event.Event{Kind: event.AttemptStart, Email: id, Rung: "backup", Model: "gpt-5.4-nano", Attempt: 1})
				add(at+2.1, event.Event{Kind: event.AttemptEnd, Email: id, Rung: "backup", Model: "gpt-5.4-nano", Attempt: 1, Outcome: event.OK, Status: 200})
				done = at + 2.1
			} else {
				add(done, event.Event{Kind: event.AttemptEnd, Email: id, Rung: "backup", Model: "gpt-5.4-nano", Outcome: event.OK, Status: 200})
			}
			add(done, event.Event{Kind: event.RungEnd, Email: id, Rung: "backup", Model: "gpt-5.4-nano", Outcome: event.OK})
			end, served = done, "backup"
		}
		st := state(t)
		inOutage := t >= 15 && t < 40
		switch {
		case st == "open" || (st == "half-open" && !probe[t]):
			add(t, event.Event{Kind: event.RungSkipped, Email: id, Rung: "primary", Model: "gpt-5.4-mini", Detail: "breaker open"})
			backup(t)
		case inOutage:
			add(t, event.Event{Kind: event.RungStart, Email: id, Rung: "primary", Model: "gpt-5.4-mini", Probe: probe[t]})
			add(t, event.Event{Kind: event.AttemptStart, Email: id, Rung: "primary", Model: "gpt-5.4-mini", Probe: probe[t]})
			add(t, event.Event{Kind: event.Fault, Email: id, Rung: "primary", Model: "gpt-5.4-mini", Fault: "hang"})
			add(t+3, event.Event{Kind: event.AttemptEnd, Email: id, Rung: "primary", Model: "gpt-5.4-mini", Outcome: event.Timeout})
			add(t+3, event.Event{Kind: event.RungEnd, Email: id, Rung: "primary", Model: "gpt-5.4-mini", Outcome: event.Timeout})
			backup(t + 3)
		default:
			add(t, event.Event{Kind: event.RungStart, Email: id, Rung: "primary", Model: "gpt-5.4-mini", Probe: probe[t]})
			add(t, event.Event{Kind: event.AttemptStart, Email: id, Rung: "primary", Model: "gpt-5.4-mini", Probe: probe[t]})
			add(t+1.2, event.Event{Kind: event.AttemptEnd, Email: id, Rung: "primary", Model: "gpt-5.4-mini", Outcome: event.OK, Status: 200})
			add(t+1.2, event.Event{Kind: event.RungEnd, Email: id, Rung: "primary", Model: "gpt-5.4-mini", Outcome: event.OK})
			end, served = t+1.2, "primary"
		}
		add(end, event.Event{Kind: event.EmailDone, Email: id, Result: &event.Result{
			ServedBy: served, Answer: answer(id, served), Wait: sec(end - t)}})
	}
	sort.SliceStable(evs, func(i, j int) bool {
		if evs[i].e.At != evs[j].e.At {
			return evs[i].e.At < evs[j].e.At
		}
		return evs[i].order < evs[j].order
	})
	out := make([]event.Event, 0, len(evs)+1)
	for _, e := range evs {
		out = append(out, e.e)
	}
	last := out[len(out)-1].At
	out = append(out, event.Event{At: last, Kind: event.RunEnd, Detail: "all emails done", End: &event.RunEndInfo{Status: event.StatusCompleted}})
	for i := range out {
		out[i].Seq = int64(i)
	}
	return out
}

// until returns the events at or before offset at.
func until(evs []event.Event, at time.Duration) []event.Event {
	i := sort.Search(len(evs), func(i int) bool { return evs[i].At > at })
	return evs[:i]
}

var _ = fmt.Sprint
