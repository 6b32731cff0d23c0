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
	r := &synth{o: o, rng: rand.New(rand.NewPCG(o.Seed, 0x6472696c6c)), from: sec(o.From), to: sec(o.To),
		state: "closed", cooldown: 5 * time.Second}
	info := o.Info()
	r.add(event.Event{At: 0, Kind: event.RunStart, Run: &info})
	if o.Outage != "none" {
		w := &event.Window{From: r.from, To: r.to}
		r.add(event.Event{At: r.from, Kind: event.OutageStart, Fault: o.Outage, Rung: event.ServedPrimary, Window: w})
		r.add(event.Event{At: r.to, Kind: event.OutageEnd, Fault: o.Outage, Rung: event.ServedPrimary, Window: w})
	}
	var end time.Duration
	for id := 1; id <= o.Emails; id++ {
		end = max(end, r.email(id))
	}
	if o.Breaker && r.state == "open" {
		r.change(max(end, r.openedAt+r.cooldown), "half-open", "cooldown over")
	}
	evs := r.evs
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

// synth is a synthetic run being written: its events so far, and the
// primary's breaker, driven by primary failures in the order they
// complete.
type synth struct {
	o        Options
	rng      *rand.Rand
	evs      []event.Event
	from, to time.Duration // the outage

	failures []time.Duration
	state    string
	openedAt time.Duration
	gen      uint64
	cooldown time.Duration
}

func (r *synth) add(e event.Event) { r.evs = append(r.evs, e) }

func (r *synth) inOutage(at time.Duration) bool {
	return r.o.Outage != "none" && at >= r.from && at < r.to
}

// change moves the breaker to state to at at.
func (r *synth) change(at time.Duration, to, reason string) {
	r.gen++
	r.add(event.Event{At: at, Kind: event.BreakerChange, Breaker: &event.BreakerState{
		Name: event.ServedPrimary, From: r.state, To: to, Generation: r.gen, Failures: len(r.failures), Reason: reason}})
	r.state = to
	if to == "open" {
		r.openedAt = at
	}
	if to == "closed" {
		r.failures = r.failures[:0]
	}
}

// email writes email id's events, from its sending to its answer, and
// returns when it was answered.
func (r *synth) email(id int) time.Duration {
	sent := sec(float64(id-1) / r.o.Rate)
	sentEv := event.Event{At: sent, Kind: event.EmailSent, Email: id}
	if e, ok := emails.ByID((id-1)%emails.Len() + 1); ok {
		truth := e.Truth // as a real drill's email_sent carries it
		sentEv.Truth = &truth
	}
	r.add(sentEv)
	t := sent
	usePrimary, probe := true, false
	if r.o.Breaker && r.state == "open" {
		if t-r.openedAt >= r.cooldown {
			r.change(r.openedAt+r.cooldown, "half-open", "cooldown over")
			probe = true
		} else {
			usePrimary = false
			r.add(event.Event{At: t, Kind: event.RungSkipped, Email: id, Rung: event.ServedPrimary, Model: "gpt-5.4-mini"})
		}
	}
	servedBy := event.ServedPrimary
	if usePrimary {
		var failed bool
		t, failed = r.primary(id, t, probe)
		usePrimary = !failed
	}
	if !usePrimary {
		servedBy = event.ServedBackup
		t = r.backup(id, t)
	}
	r.add(event.Event{At: t, Kind: event.EmailDone, Email: id, Result: r.result(id, servedBy, t-sent)})
	return t
}

// primary writes the primary rung's attempts for email id from t (three
// at most, backing off between them unless probing) and the breaker's
// changes; it returns when the rung ended and whether it failed.
func (r *synth) primary(id int, t time.Duration, probe bool) (time.Duration, bool) {
	r.add(event.Event{At: t, Kind: event.RungStart, Email: id, Rung: event.ServedPrimary, Model: "gpt-5.4-mini", Probe: probe})
	failed := false
	for attempt := 0; attempt < 3; attempt++ {
		r.add(event.Event{At: t, Kind: event.AttemptStart, Email: id, Rung: event.ServedPrimary, Model: "gpt-5.4-mini", Attempt: attempt, Probe: probe})
		if !r.inOutage(t) {
			t += time.Duration(600+r.rng.IntN(900)) * time.Millisecond
			r.add(event.Event{At: t, Kind: event.AttemptEnd, Email: id, Rung: event.ServedPrimary, Attempt: attempt, Outcome: event.OK, Status: 200, Probe: probe})
			r.add(event.Event{At: t, Kind: event.RungEnd, Email: id, Rung: event.ServedPrimary, Outcome: event.OK})
			break
		}
		var out event.Outcome
		var status int
		t, out, status = r.faulted(id, t)
		r.add(event.Event{At: t, Kind: event.AttemptEnd, Email: id, Rung: event.ServedPrimary, Attempt: attempt, Outcome: out, Status: status, Probe: probe})
		if attempt < 2 && !probe {
			t += time.Duration(float64(500*time.Millisecond) * float64(int(1)<<attempt) * (0.75 + 0.25*r.rng.Float64()))
			continue
		}
		failed = true
		r.add(event.Event{At: t, Kind: event.RungEnd, Email: id, Rung: event.ServedPrimary, Outcome: out, Status: status})
		break
	}
	if failed {
		r.failures = append(r.failures, t)
		if r.o.Breaker && (probe || (r.state == "closed" && len(r.failures) >= 5)) {
			r.change(t, "open", "5 failures")
		}
	} else if r.o.Breaker && probe {
		r.change(t, "closed", "probe succeeded")
	}
	return t, failed
}

// faulted writes the outage's fault on an attempt started at t, and
// returns when the attempt ended and how.
func (r *synth) faulted(id int, t time.Duration) (time.Duration, event.Outcome, int) {
	if r.o.Outage == "hang" {
		r.add(event.Event{At: t, Kind: event.Fault, Email: id, Rung: event.ServedPrimary, Fault: "hang"})
		return t + 5*time.Second, event.Timeout, 0
	}
	r.add(event.Event{At: t, Kind: event.Fault, Email: id, Rung: event.ServedPrimary, Fault: "busy"})
	return t + time.Duration(20+r.rng.IntN(60))*time.Millisecond, event.HTTP5xx, 503
}

// backup writes the backup rung's one good call from t, and returns when
// it ended.
func (r *synth) backup(id int, t time.Duration) time.Duration {
	r.add(event.Event{At: t, Kind: event.RungStart, Email: id, Rung: event.ServedBackup, Model: "gpt-5.4-nano"})
	r.add(event.Event{At: t, Kind: event.AttemptStart, Email: id, Rung: event.ServedBackup, Model: "gpt-5.4-nano"})
	t += time.Duration(500+r.rng.IntN(700)) * time.Millisecond
	r.add(event.Event{At: t, Kind: event.AttemptEnd, Email: id, Rung: event.ServedBackup, Outcome: event.OK, Status: 200})
	r.add(event.Event{At: t, Kind: event.RungEnd, Email: id, Rung: event.ServedBackup, Outcome: event.OK})
	return t
}

// result is email id's result: its answer the truth, with the urgency
// wrong now and then (more often from the backup).
func (r *synth) result(id int, servedBy string, wait time.Duration) *event.Result {
	res := &event.Result{ServedBy: servedBy, Wait: wait}
	if e, ok := emails.ByID((id-1)%emails.Len() + 1); ok {
		a := e.Truth
		wrong := 0.03
		if servedBy == event.ServedBackup {
			wrong = 0.25
		}
		if r.rng.Float64() < wrong {
			a.Urgency = "high"
			if e.Truth.Urgency == "high" {
				a.Urgency = "normal"
			}
		}
		res.Answer = &a
	}
	return res
}
