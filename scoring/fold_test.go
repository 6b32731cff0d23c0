package scoring

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

func sec(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// TestFoldIsSafeOnHostileOffsets folds events with negative and huge
// offsets: nothing panics, and the per-second series stay bounded.
func TestFoldIsSafeOnHostileOffsets(t *testing.T) {
	f := NewFoldWith(Options{Attempts: true})
	for _, at := range []time.Duration{-time.Hour, math.MinInt64, math.MaxInt64, 1 << 62, sec(3)} {
		f.Add(event.Event{At: at, Kind: event.EmailSent, Email: 1})
		f.Add(event.Event{At: at, Kind: event.AttemptStart, Email: 1, Rung: "primary", Attempt: 1})
		f.Add(event.Event{At: at, Kind: event.AttemptEnd, Email: 1, Rung: "primary", Attempt: 1, Outcome: event.Timeout})
		f.Add(event.Event{At: at, Kind: event.OutageStart, Window: &event.Window{From: at, To: -at}})
		f.Add(event.Event{At: at, Kind: event.OutageEnd, Window: &event.Window{From: at, To: at - 1}})
		f.Add(event.Event{At: at, Kind: event.BreakerChange, Breaker: &event.BreakerState{Name: "primary", To: StateOpen}})
		f.Add(event.Event{At: at, Kind: event.EmailDone, Email: -5, Result: &event.Result{ServedBy: "primary", Wait: at}})
		f.Add(event.Event{At: at, Kind: "no such kind"})
	}
	if n := len(f.AttemptsPerSecond("primary")); n > MaxSeriesSeconds {
		t.Errorf("series of %d seconds, want at most %d", n, MaxSeriesSeconds)
	}
	if got := f.AttemptsPerSecond("primary").Sum(); got != 1 {
		t.Errorf("series counts %d attempts, want only the one at 3 s", got)
	}
	s := f.Summary()
	if _, err := json.Marshal(s); err != nil {
		t.Errorf("summary does not encode: %v", err)
	}
	_ = f.BreakerSpans("primary", math.MinInt64)
}

// TestWindowsComeFromTheEvents: the fold takes each window's offsets from
// the events as the injector applied them, never from the configuration.
func TestWindowsComeFromTheEvents(t *testing.T) {
	f := NewFold()
	f.Add(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Outage: "busy", Emails: 3, OutageFromS: 15, OutageToS: 40, Target: "primary"}})
	// A scheduled window logged a moment late, then a window by hand.
	f.Add(event.Event{At: sec(15.002), Kind: event.OutageStart, Fault: "busy", Rung: "primary", Window: &event.Window{From: sec(15), To: sec(40)}})
	f.Add(event.Event{At: sec(22), Kind: event.OutageEnd, Fault: "busy", Rung: "primary", Detail: event.ByHand, Window: &event.Window{From: sec(15), To: sec(22), ByHand: true}})
	f.Add(event.Event{At: sec(30), Kind: event.OutageStart, Fault: "hang", Rung: "primary", Detail: event.ByHand, Window: &event.Window{From: sec(30), To: -1, ByHand: true}})
	f.Add(event.Event{At: sec(31), Kind: event.OutageEnd, Fault: "hang", Rung: "primary", Detail: event.ByHand, Window: &event.Window{From: sec(30), To: sec(31), ByHand: true}})
	want := []Window{
		{Window: event.Window{FaultSpec: event.FaultSpec{Kind: "busy"}, From: sec(15), To: sec(22), ByHand: true}, Target: "primary", Basis: BasisInjected, ScheduledEnd: sec(40)},
		{Window: event.Window{FaultSpec: event.FaultSpec{Kind: "hang"}, From: sec(30), To: sec(31), ByHand: true}, Target: "primary", Basis: BasisInjected, ScheduledEnd: -1},
	}
	if !reflect.DeepEqual(f.Windows, want) {
		t.Errorf("windows %+v, want %+v", f.Windows, want)
	}
	s := f.Summary()
	if len(s.OutageWindows) != 2 || len(s.ManualOutageWindows) != 2 || s.OutageWindows[0].StartS != 15 || *s.OutageWindows[0].EndS != 22 {
		t.Errorf("summary windows %+v, manual %+v", s.OutageWindows, s.ManualOutageWindows)
	}
}

// TestCutShortRunIsReportedAsSuch: a run stopped early reports its status,
// the emails never sent and why, and quality over the emails answered only.
func TestCutShortRunIsReportedAsSuch(t *testing.T) {
	f := NewFold()
	f.truth = func(id int) (emails.Email, bool) {
		return emails.Email{ID: id, Truth: emails.Answer{Intent: "refund", Urgency: "low"}}, true
	}
	right := &emails.Answer{Intent: "refund", Urgency: "low"}
	wrong := &emails.Answer{Intent: "refund", Urgency: "high"}
	f.Add(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Emails: 10, Follow: 3}})
	for id := 1; id <= 4; id++ {
		f.Add(event.Event{At: sec(float64(id)), Kind: event.EmailSent, Email: id})
	}
	f.Add(event.Event{At: sec(5), Kind: event.EmailDone, Email: 1, Result: &event.Result{ServedBy: "primary", Answer: right, Wait: sec(4)}})
	f.Add(event.Event{At: sec(5), Kind: event.EmailDone, Email: 2, Result: &event.Result{ServedBy: "backup", Answer: wrong, Wait: sec(3)}})
	f.Add(event.Event{At: sec(5), Kind: event.EmailDone, Email: 3, Result: &event.Result{ServedBy: "error", Wait: sec(2), Cancelled: true}})
	f.Add(event.Event{At: sec(5), Kind: event.RunEnd, Detail: "interrupted",
		End: &event.RunEndInfo{Status: event.StatusInterrupted, NotSent: 6, NotSentReason: event.NotSentStopped}})
	s := f.Summary()
	got := []any{s.Status, s.Emails, s.EmailsSent, s.EmailsAnswered, s.NotSent, s.NotSentReason, s.NeverAnswered, s.Served, s.All4Right, s.Followed.ServedBy}
	want := []any{"interrupted", 10, 4, 2, 6, "run stopped", 2, Served{Primary: 1, Backup: 1, Cancelled: 1}, 0.5, "cancelled"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("summary figures %v, want %v", got, want)
	}
	if s.FieldsRight["urgency"] != 0.5 || s.FieldsRight["intent"] != 1 {
		t.Errorf("fields right %v", s.FieldsRight)
	}
}

// TestSummaryRoundTripsThroughJSON: a summary decoded from its JSON (a
// journal's summary line) equals the one computed, so replay can compare
// them.
func TestSummaryRoundTripsThroughJSON(t *testing.T) {
	f := NewFold()
	f.Add(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Emails: 1, Policy: "breaker",
		Rungs: []event.Rung{{Name: "primary", Model: "m", HasBreaker: true, Breaker: &event.BreakerSettings{Rule: "5 failures in 10s", Failures: 5}}}}})
	f.Add(event.Event{At: sec(1), Kind: event.EmailSent, Email: 1})
	s := f.Summary()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Summary
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, s) {
		t.Errorf("summary after JSON %+v\nwant %+v", back, s)
	}
}

// TestOutageEndsPairByIndex: crossing windows (the first ends while the
// second is open) are each closed by their own outage_end.
func TestOutageEndsPairByIndex(t *testing.T) {
	f := NewFold()
	f.Add(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Outage: "busy", Emails: 1, Target: "primary"}})
	s := time.Second
	for _, e := range []event.Event{
		{Kind: event.OutageStart, At: 5 * s, Fault: "busy", Rung: "primary", Window: &event.Window{From: 5 * s, To: 15 * s, Index: 0}},
		{Kind: event.OutageStart, At: 10 * s, Fault: "hang", Rung: "backup", Window: &event.Window{From: 10 * s, To: 20 * s, Index: 1}},
		{Kind: event.OutageEnd, At: 15 * s, Fault: "busy", Rung: "primary", Window: &event.Window{From: 5 * s, To: 15 * s, Index: 0}},
		{Kind: event.OutageEnd, At: 20 * s, Fault: "hang", Rung: "backup", Window: &event.Window{From: 10 * s, To: 20 * s, Index: 1}},
	} {
		f.Add(e)
	}
	if len(f.Windows) != 2 {
		t.Fatalf("windows %+v", f.Windows)
	}
	for i, want := range [][2]time.Duration{{5 * s, 15 * s}, {10 * s, 20 * s}} {
		if w := f.Windows[i]; w.From != want[0] || w.To != want[1] {
			t.Errorf("window %d (%s on %s): %s–%s, want %s–%s", i, w.Kind, w.Target, w.From, w.To, want[0], want[1])
		}
	}
}
