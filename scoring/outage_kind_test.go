package scoring

import (
	"strings"
	"testing"

	"github.com/drill-dev/drill/event"
)

// byHandHang is a busy drill (or one with no outage) in which a hang was
// started by hand at 8.7 s and ended by hand at 41.8 s.
func byHandHang(planned string) []event.Event {
	first := [2]float64{18.1, 18.5}
	return []event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Outage: planned, Emails: 2, OutageFromS: 15, OutageToS: 40, Target: "primary",
			Predicted: &event.Predicted{FirstOpenS: &first}}},
		{At: sec(8.7), Kind: event.OutageStart, Fault: "hang", Rung: "primary", Detail: event.ByHand,
			Window: &event.Window{From: sec(8.7), To: -1, ByHand: true, Index: 1}},
		{At: sec(41.8), Kind: event.OutageEnd, Fault: "hang", Rung: "primary", Detail: event.ByHand,
			Window: &event.Window{From: sec(8.7), To: sec(41.8), ByHand: true, Index: 1}},
		{At: sec(60), Kind: event.RunEnd, End: &event.RunEndInfo{Status: event.StatusCompleted}},
	}
}

// TestOutageByHandIsNamedByItsFault: an outage started by hand is the
// outage the run had: a hang by hand in a busy drill, or in a drill
// without an outage, is summarised as hang, and the busy prediction is
// not set beside it: a prediction for a fault that did not run would
// mislead.
func TestOutageByHandIsNamedByItsFault(t *testing.T) {
	for _, planned := range []string{"busy", "none"} {
		s := Summarize(byHandHang(planned))
		if s.Outage != "hang" {
			t.Errorf("planned %s: outage %q, want hang", planned, s.Outage)
		}
		if len(s.ManualOutageWindows) != 1 || s.ManualOutageWindows[0].Fault != "hang" {
			t.Errorf("planned %s: manual windows %+v", planned, s.ManualOutageWindows)
		}
		if s.PredictedFirstOpenS != nil || !strings.Contains(s.PredictedNote, "hang") {
			t.Errorf("planned %s: predicted first open %v, note %q; want none, with a note naming the hang",
				planned, s.PredictedFirstOpenS, s.PredictedNote)
		}
	}
	// A scheduled window, even ended by hand, keeps the planned kind and its prediction.
	evs := byHandHang("busy")
	evs[1] = event.Event{At: sec(15), Kind: event.OutageStart, Fault: "busy", Rung: "primary",
		Window: &event.Window{From: sec(15), To: sec(40), Index: 0}}
	evs[2] = event.Event{At: sec(22), Kind: event.OutageEnd, Fault: "busy", Rung: "primary", Detail: event.ByHand,
		Window: &event.Window{From: sec(15), To: sec(22), ByHand: true, Index: 0}}
	if s := Summarize(evs); s.Outage != "busy" || s.PredictedFirstOpenS == nil {
		t.Errorf("scheduled window ended by hand: outage %q, predicted first open %v", s.Outage, s.PredictedFirstOpenS)
	}
}

// failedCall is one attempt to rung that started at start and failed with
// a 503 at end.
func failedCall(email int, rung string, start, end float64) []event.Event {
	return []event.Event{
		{At: sec(start), Kind: event.AttemptStart, Email: email, Rung: rung, Model: "m"},
		{At: sec(end), Kind: event.AttemptEnd, Email: email, Rung: rung, Model: "m", Outcome: event.HTTP5xx, Status: 503},
	}
}

// TestOneFirstOpenPerSummary: under an injected outage, the observed row of
// the broken rung gives the same first open as the summary, relative to
// the outage's start, not to its first failed call, so one summary never
// quotes two first opens (18.5 s beside 18.2 s).
func TestOneFirstOpenPerSummary(t *testing.T) {
	evs := []event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Outage: "busy", Emails: 2, OutageFromS: 15, OutageToS: 40, Target: "primary",
			Rungs: []event.Rung{{Name: "primary", Model: "m", HasBreaker: true}}}},
		{At: sec(15), Kind: event.OutageStart, Fault: "busy", Rung: "primary", Window: &event.Window{From: sec(15), To: sec(40)}},
	}
	evs = append(evs, failedCall(1, "primary", 15.3, 15.4)...)
	evs = append(evs, failedCall(2, "primary", 33.4, 33.5)...)
	evs = append(evs,
		event.Event{At: sec(33.5), Kind: event.BreakerChange, Rung: "primary", Breaker: &event.BreakerState{Name: "primary", From: StateClosed, To: StateOpen}},
		event.Event{At: sec(40), Kind: event.OutageEnd, Fault: "busy", Rung: "primary", Window: &event.Window{From: sec(15), To: sec(40)}},
		event.Event{At: sec(60), Kind: event.RunEnd, End: &event.RunEndInfo{Status: event.StatusCompleted}})
	f := NewFold()
	f.AddAll(evs)
	s := f.Summary()
	if s.BreakerFirstOpenS == nil || *s.BreakerFirstOpenS != 18.5 {
		t.Fatalf("breaker_first_open_s %v, want 18.5", s.BreakerFirstOpenS)
	}
	if len(s.Observed) != 1 || s.Observed[0].BreakerFirstOpenS == nil || *s.Observed[0].BreakerFirstOpenS != *s.BreakerFirstOpenS {
		t.Errorf("observed rows %+v: want one, whose first open is the summary's 18.5 s", s.Observed)
	}
	if b := f.Breaker("primary"); b.FirstOpen == nil || *b.FirstOpen != sec(18.5) {
		t.Errorf("the breaker's first open %v, want 18.5 s", b.FirstOpen)
	}
}

// TestNothingIsBrokenBeforeThePlannedOutage: 2.8 s into a drill whose
// outage starts at 15 s, failed calls are not calls to a broken model
// (a summary must not say "4 calls to broken primary (observed)" before
// the outage began).
func TestNothingIsBrokenBeforeThePlannedOutage(t *testing.T) {
	f := NewFold()
	f.Add(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Outage: "busy", Emails: 120, OutageFromS: 15, OutageToS: 40, Target: "primary"}})
	for i := range 4 {
		f.AddAll(failedCall(i+1, "primary", 0.5*float64(i), 0.5*float64(i)+0.4))
	}
	if n := f.CallsToBroken(); n != 0 {
		t.Errorf("%d calls to the broken model before the outage, want 0", n)
	}
	if s := f.Summary(); s.OutageBasis != BasisNone || s.CallsToBrokenOutage != 0 {
		t.Errorf("basis %s, calls to broken %d; want none and 0", s.OutageBasis, s.CallsToBrokenOutage)
	}
	// Without a planned outage, the same failures are the observed outage.
	g := NewFold()
	g.Add(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Outage: "none", Emails: 120, Target: "primary"}})
	for i := range 4 {
		g.AddAll(failedCall(i+1, "primary", 0.5*float64(i), 0.5*float64(i)+0.4))
	}
	if basis, _ := g.Basis(); basis != BasisObserved || g.CallsToBroken() != 4 {
		t.Errorf("no planned outage: basis %s, calls to broken %d; want observed and 4", basis, g.CallsToBroken())
	}
}
