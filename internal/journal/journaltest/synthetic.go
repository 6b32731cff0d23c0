// Package journaltest builds plausible drill runs as event lists, for tests
// and benchmarks of journals, replay and reports that must not depend on the
// engine. The runs follow the chapter's shape (emails at a steady rate, an
// outage of the primary model, a fallback to the backup, an optional
// breaker) and are fully determined by their options.
package journaltest

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

// Options shape a synthetic run. Zero fields take the chapter's values.
type Options struct {
	Emails  int     // emails to send (120)
	Rate    float64 // emails per second (2)
	Outage  string  // busy, hang or none ("busy")
	Policy  string  // policy name recorded in RunInfo ("fallback + breaker" when Breaker, else "fallback")
	Breaker bool    // guard the primary with a 5-failure breaker, 5 s cooldown
	From    float64 // outage window start, seconds (15)
	To      float64 // outage window end, seconds (40)
	Follow  int     // the followed email (35)
	Seed    uint64  // answers and latencies
}

func (o Options) withDefaults() Options {
	if o.Emails == 0 {
		o.Emails = 120
	}
	if o.Rate == 0 {
		o.Rate = 2
	}
	if o.Outage == "" {
		o.Outage = "busy"
	}
	if o.Policy == "" {
		o.Policy = "fallback"
		if o.Breaker {
			o.Policy = "fallback + breaker"
		}
	}
	if o.From == 0 && o.To == 0 {
		o.From, o.To = 15, 40
	}
	if o.Follow == 0 {
		o.Follow = 35
	}
	return o
}

// Info is the RunInfo a run with these options carries in its run_start.
func (o Options) Info() event.RunInfo {
	o = o.withDefaults()
	return event.RunInfo{
		Outage: o.Outage, Policy: o.Policy, Emails: o.Emails, Rate: o.Rate,
		Target: event.ServedPrimary, OutageFromS: o.From, OutageToS: o.To,
		Follow: o.Follow, TimeLimitScope: "attempt",
		Rungs: []event.Rung{
			{Name: event.ServedPrimary, Model: "gpt-5.4-mini", TimeLimit: 5 * time.Second, Retries: 2, HasBreaker: o.Breaker},
			{Name: event.ServedBackup, Model: "gpt-5.4-nano", TimeLimit: 5 * time.Second, Retries: 2},
			{Name: event.ServedCanned},
		},
	}
}

func sec(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// Run returns the events of a whole synthetic run in log order, with
// sequence numbers, ending in run_end.
func Run(o Options) []event.Event {
	o = o.withDefaults()
	rng := rand.New(rand.NewPCG(o.Seed, 0x6472696c6c))
	var evs []event.Event
	add := func(e event.Event) { evs = append(evs, e) }
	info := o.Info()
	add(event.Event{At: 0, Kind: event.RunStart, Run: &info})
	from, to := sec(o.From), sec(o.To)
	if o.Outage != "none" {
		w := &event.Window{From: from, To: to}
		add(event.Event{At: from, Kind: event.OutageStart, Fault: o.Outage, Rung: event.ServedPrimary, Window: w})
		add(event.Event{At: to, Kind: event.OutageEnd, Fault: o.Outage, Rung: event.ServedPrimary, Window: w})
	}
	inOutage := func(at time.Duration) bool { return o.Outage != "none" && at >= from && at < to }

	// Breaker state, driven by primary failures in the order they complete.
	var failures []time.Duration
	state, openedAt, gen := "closed", time.Duration(0), uint64(0)
	change := func(at time.Duration, to, reason string) {
		gen++
		add(event.Event{At: at, Kind: event.BreakerChange, Breaker: &event.BreakerState{
			Name: event.ServedPrimary, From: state, To: to, Generation: gen, Failures: len(failures), Reason: reason}})
		state = to
		if to == "open" {
			openedAt = at
		}
		if to == "closed" {
			failures = failures[:0]
		}
	}
	cooldown := 5 * time.Second
	var end time.Duration
	for id := 1; id <= o.Emails; id++ {
		sent := sec(float64(id-1) / o.Rate)
		sentEv := event.Event{At: sent, Kind: event.EmailSent, Email: id}
		if e, ok := emails.ByID((id-1)%emails.Len() + 1); ok {
			truth := e.Truth // as a real drill's email_sent carries it
			sentEv.Truth = &truth
		}
		add(sentEv)
		t := sent
		servedBy := event.ServedPrimary
		usePrimary := true
		probe := false
		if o.Breaker && state == "open" {
			if t-openedAt >= cooldown {
				change(openedAt+cooldown, "half-open", "cooldown over")
				probe = true
			} else {
				usePrimary = false
				add(event.Event{At: t, Kind: event.RungSkipped, Email: id, Rung: event.ServedPrimary, Model: "gpt-5.4-mini"})
			}
		}
		if usePrimary {
			add(event.Event{At: t, Kind: event.RungStart, Email: id, Rung: event.ServedPrimary, Model: "gpt-5.4-mini", Probe: probe})
			failed := false
			for attempt := 0; attempt < 3; attempt++ {
				add(event.Event{At: t, Kind: event.AttemptStart, Email: id, Rung: event.ServedPrimary, Model: "gpt-5.4-mini", Attempt: attempt, Probe: probe})
				if inOutage(t) {
					var out event.Outcome
					var status int
					if o.Outage == "hang" {
						add(event.Event{At: t, Kind: event.Fault, Email: id, Rung: event.ServedPrimary, Fault: "hang"})
						t += 5 * time.Second
						out = event.Timeout
					} else {
						add(event.Event{At: t, Kind: event.Fault, Email: id, Rung: event.ServedPrimary, Fault: "busy"})
						t += time.Duration(20+rng.IntN(60)) * time.Millisecond
						out, status = event.HTTP5xx, 503
					}
					add(event.Event{At: t, Kind: event.AttemptEnd, Email: id, Rung: event.ServedPrimary, Attempt: attempt, Outcome: out, Status: status, Probe: probe})
					if attempt < 2 && !probe {
						t += time.Duration(float64(500*time.Millisecond) * float64(int(1)<<attempt) * (0.75 + 0.25*rng.Float64()))
						continue
					}
					failed = true
					add(event.Event{At: t, Kind: event.RungEnd, Email: id, Rung: event.ServedPrimary, Outcome: out, Status: status})
					break
				}
				t += time.Duration(600+rng.IntN(900)) * time.Millisecond
				add(event.Event{At: t, Kind: event.AttemptEnd, Email: id, Rung: event.ServedPrimary, Attempt: attempt, Outcome: event.OK, Status: 200, Probe: probe})
				add(event.Event{At: t, Kind: event.RungEnd, Email: id, Rung: event.ServedPrimary, Outcome: event.OK})
				break
			}
			if failed {
				failures = append(failures, t)
				if o.Breaker && (probe || (state == "closed" && len(failures) >= 5)) {
					change(t, "open", "5 failures")
				}
			} else if o.Breaker && probe {
				change(t, "closed", "probe succeeded")
			}
			if !failed {
				servedBy = event.ServedPrimary
			} else {
				usePrimary = false
			}
		}
		if !usePrimary {
			servedBy = event.ServedBackup
			add(event.Event{At: t, Kind: event.RungStart, Email: id, Rung: event.ServedBackup, Model: "gpt-5.4-nano"})
			add(event.Event{At: t, Kind: event.AttemptStart, Email: id, Rung: event.ServedBackup, Model: "gpt-5.4-nano"})
			t += time.Duration(500+rng.IntN(700)) * time.Millisecond
			add(event.Event{At: t, Kind: event.AttemptEnd, Email: id, Rung: event.ServedBackup, Outcome: event.OK, Status: 200})
			add(event.Event{At: t, Kind: event.RungEnd, Email: id, Rung: event.ServedBackup, Outcome: event.OK})
		}
		res := &event.Result{ServedBy: servedBy, Wait: t - sent}
		if e, ok := emails.ByID((id-1)%emails.Len() + 1); ok {
			a := e.Truth
			wrong := 0.03
			if servedBy == event.ServedBackup {
				wrong = 0.25
			}
			if rng.Float64() < wrong {
				a.Urgency = "high"
				if e.Truth.Urgency == "high" {
					a.Urgency = "normal"
				}
			}
			res.Answer = &a
		}
		add(event.Event{At: t, Kind: event.EmailDone, Email: id, Result: res})
		end = max(end, t)
	}
	if o.Breaker && state == "open" {
		change(max(end, openedAt+cooldown), "half-open", "cooldown over")
	}
	slices.SortStableFunc(evs, func(a, b event.Event) int {
		switch {
		case a.At < b.At:
			return -1
		case a.At > b.At:
			return 1
		}
		return 0
	})
	last := evs[len(evs)-1].At
	evs = append(evs, event.Event{At: last, Kind: event.RunEnd, Detail: "all emails done",
		End: &event.RunEndInfo{Status: event.StatusCompleted}})
	for i := range evs {
		evs[i].Seq = int64(i)
	}
	return evs
}
