package scoring

import (
	"slices"
	"testing"

	"github.com/drill-dev/drill/event"
)

// TestInFlightAndLittlesLaw: two overlapping calls on the primary, one of
// them retried; the gauge's peaks, its per-second maxima, and λ × W equal
// to the time-average once every call has ended.
func TestInFlightAndLittlesLaw(t *testing.T) {
	f := NewFold()
	for _, e := range []event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Emails: 2, MaxInFlight: 5}},
		{At: sec(0), Kind: event.EmailSent, Email: 1},
		{At: sec(0), Kind: event.RungStart, Email: 1, Rung: "primary"},
		{At: sec(0), Kind: event.AttemptStart, Email: 1, Rung: "primary", Attempt: 0},
		{At: sec(0.5), Kind: event.EmailSent, Email: 2},
		{At: sec(0.5), Kind: event.RungStart, Email: 2, Rung: "primary"},
		{At: sec(0.5), Kind: event.AttemptStart, Email: 2, Rung: "primary", Attempt: 0},
		{At: sec(1), Kind: event.AttemptEnd, Email: 1, Rung: "primary", Attempt: 0, Outcome: event.Timeout},
		{At: sec(1.5), Kind: event.AttemptStart, Email: 1, Rung: "primary", Attempt: 1},
		{At: sec(2), Kind: event.AttemptEnd, Email: 2, Rung: "primary", Attempt: 0, Outcome: event.OK},
		{At: sec(2), Kind: event.RungEnd, Email: 2, Rung: "primary", Outcome: event.OK},
		{At: sec(2), Kind: event.EmailDone, Email: 2, Result: &event.Result{ServedBy: "primary", Wait: sec(1.5)}},
		{At: sec(3), Kind: event.AttemptEnd, Email: 1, Rung: "primary", Attempt: 1, Outcome: event.OK},
		{At: sec(3), Kind: event.RungEnd, Email: 1, Rung: "primary", Outcome: event.OK},
		{At: sec(3), Kind: event.EmailSent, Email: 3},
		{At: sec(3), Kind: event.EmailDone, Email: 3, Result: &event.Result{ServedBy: event.ServedRejected}},
		{At: sec(4), Kind: event.EmailDone, Email: 1, Result: &event.Result{ServedBy: "primary", Wait: sec(4)}},
	} {
		f.Add(e)
	}
	s := f.Summary()
	if s.MaxInFlight != 5 || s.Served.Rejected != 1 || s.InFlight.PeakEmails != 2 {
		t.Errorf("max %d, rejected %d, peak emails %d; want 5, 1, 2", s.MaxInFlight, s.Served.Rejected, s.InFlight.PeakEmails)
	}
	if len(s.InFlight.Rungs) != 1 {
		t.Fatalf("rungs %+v, want the primary", s.InFlight.Rungs)
	}
	r := s.InFlight.Rungs[0]
	// 3 calls in 4 s (λ 0.75), in flight 1 + 1.5 + 1.5 = 4 s (W 4/3 s):
	// λ × W = 1 = the 4 call-seconds over 4 s.
	if r.PeakCalls != 2 || r.PeakEmails != 2 || r.CallsPerS != 0.75 || r.MeanCalls != 1 || r.LittleCalls == nil || *r.LittleCalls != 1 {
		t.Errorf("primary in flight %+v, want peaks 2 and 2, λ 0.75, mean 1 = λ×W", r)
	}
	calls, emails := f.InFlightPerSecond("primary")
	if want := []int{2, 2, 1, 0}; !slices.Equal(calls, want) {
		t.Errorf("calls in flight per second %v, want %v", calls, want)
	}
	if want := []int{2, 2, 1, 0}; !slices.Equal(emails, want) {
		t.Errorf("emails on the primary per second %v, want %v", emails, want)
	}
	if c, e := f.InFlight("primary"); c != 0 || e != 0 || f.EmailsInFlight() != 0 {
		t.Errorf("in flight at the end: %d calls, %d emails, %d in all; want none", c, e, f.EmailsInFlight())
	}
}
