package scoring

import (
	"reflect"
	"testing"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

// baselineLog is a small busy drill without breakers: three emails, the
// second and third sent into the outage and faulted once each.
func baselineLog() []event.Event {
	truth := emails.Answer{}
	return []event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Outage: "busy", Policy: "breaker", Emails: 3, OutageFromS: 1, OutageToS: 3, Target: "primary"}},
		{At: sec(0), Kind: event.EmailSent, Email: 1, Truth: &truth},
		{At: sec(0.5), Kind: event.EmailDone, Email: 1, Result: &event.Result{ServedBy: "primary", Wait: sec(0.5)}},
		{At: sec(1), Kind: event.OutageStart, Fault: "busy", Rung: "primary", Window: &event.Window{From: sec(1), To: sec(3)}},
		{At: sec(1.5), Kind: event.EmailSent, Email: 2, Truth: &truth},
		{At: sec(1.5), Kind: event.Fault, Email: 2, Rung: "primary"},
		{At: sec(2), Kind: event.EmailDone, Email: 2, Result: &event.Result{ServedBy: "backup", Wait: sec(0.5)}},
		{At: sec(2.5), Kind: event.EmailSent, Email: 3, Truth: &truth},
		{At: sec(2.5), Kind: event.Fault, Email: 3, Rung: "primary"},
		{At: sec(3), Kind: event.OutageEnd, Fault: "busy", Rung: "primary", Window: &event.Window{From: sec(1), To: sec(3)}},
		{At: sec(4), Kind: event.EmailDone, Email: 3, Result: &event.Result{ServedBy: "backup", Wait: sec(1.5)}},
		{At: sec(4), Kind: event.RunEnd, End: &event.RunEndInfo{Status: event.StatusCompleted}},
	}
}

// TestBaselineAtTheLiveElapsedTime: the baseline's figures at an elapsed
// time are exactly the fold's summary of its log up to that time, and the
// whole baseline once the live run completed.
func TestBaselineAtTheLiveElapsedTime(t *testing.T) {
	log := baselineLog()
	b := NewBaseline("no-breakers", log)
	at2 := b.At(sec(2), false)
	want := Summarize(log[:7]) // every event at or before 2 s
	if at2.CallsToBrokenOutage != 1 || at2.CallsToBrokenOutage != want.CallsToBrokenOutage {
		t.Errorf("calls to broken at 2 s: %d, want 1 (the fold's %d)", at2.CallsToBrokenOutage, want.CallsToBrokenOutage)
	}
	if !reflect.DeepEqual(at2.Served, want.Served) || at2.EmailsSent != 2 || at2.AtS != 2 || at2.Complete {
		t.Errorf("at 2 s: %+v, want served %+v, 2 sent, at 2 s, not complete", at2, want.Served)
	}
	if at1 := b.At(sec(1), false); at1.CallsToBrokenOutage != 1 {
		t.Errorf("an earlier time after a later one refolded: %d calls, want the 1 already folded", at1.CallsToBrokenOutage)
	}
	whole := b.At(sec(2.5), true)
	all := Summarize(log)
	if !whole.Complete || whole.CallsToBrokenOutage != 2 || whole.AtS != 4 || !reflect.DeepEqual(whole.Served, all.Served) ||
		!reflect.DeepEqual(whole.P95WaitOutageS, all.P95WaitOutageS) {
		t.Errorf("whole baseline: %+v, want complete, 2 calls, at 4 s, as the fold's %+v", whole, all.Served)
	}
	if whole.Basis != BaselineReplayed || whole.Policy != "no-breakers" {
		t.Errorf("basis %q policy %q, want replayed no-breakers", whole.Basis, whole.Policy)
	}
}

// TestPredictedBaseline: against real models the baseline is the
// prediction, labelled so, or the reason there is none.
func TestPredictedBaseline(t *testing.T) {
	p := PredictedBaseline("no-breakers", &event.Predicted{CallsToBroken: [2]float64{140, 150}})
	if p.Basis != BaselinePredicted || p.PredictedCallsToBroken == nil || *p.PredictedCallsToBroken != [2]float64{140, 150} {
		t.Errorf("predicted baseline %+v, want basis predicted and calls 140–150", p)
	}
	if n := PredictedBaseline("fallback", &event.Predicted{Note: "no outage"}); n.PredictedNote != "no outage" || n.PredictedCallsToBroken != nil {
		t.Errorf("unpredicted baseline %+v, want the note and no range", n)
	}
}

// TestBaselineReadsItsLogAsItGoes: a baseline read from a source takes
// only the events up to the live run's time (and the one after it that
// shows where to stop), the same figures as from the whole log, and
// reads the rest only when the whole baseline is asked for.
func TestBaselineReadsItsLogAsItGoes(t *testing.T) {
	log := baselineLog()
	read := 0
	b := NewBaselineFrom("no-breakers", func() (event.Event, bool) {
		if read == len(log) {
			return event.Event{}, false
		}
		read++
		return log[read-1], true
	})
	at2 := b.At(sec(2), false)
	if read != 8 { // seven events at or before 2 s, and the first after
		t.Errorf("read %d events for 2 s, want 8", read)
	}
	if want := NewBaseline("no-breakers", log).At(sec(2), false); !reflect.DeepEqual(at2, want) {
		t.Errorf("at 2 s: %+v, want %+v", at2, want)
	}
	if whole := b.At(sec(2), true); read != len(log) || !whole.Complete {
		t.Errorf("whole: read %d of %d, complete %v", read, len(log), whole.Complete)
	}
}
