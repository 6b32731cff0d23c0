package scoring

import (
	"testing"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

// TestObservedWindowHoldsItsEnd: an instant failure (a 503 on the virtual
// clock starts and ends at once) is a call to the broken model inside its
// own observed window, and every figure reads the window alike: the email
// sent then waited during the outage. The counts once took the window's end
// as inside and the waits as outside.
func TestObservedWindowHoldsItsEnd(t *testing.T) {
	f := NewFold()
	f.Add(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Outage: "none", Emails: 2, Target: "primary", Rate: 2}})
	truth := emails.All()[0].Truth
	f.Add(event.Event{At: sec(10), Kind: event.EmailSent, Email: 1, Truth: &truth})
	f.Add(event.Event{At: sec(10), Kind: event.AttemptStart, Email: 1, Rung: "primary"})
	f.Add(event.Event{At: sec(10), Kind: event.AttemptEnd, Email: 1, Rung: "primary", Outcome: event.HTTP5xx, Status: 503})
	f.Add(event.Event{At: sec(10.5), Kind: event.AttemptStart, Email: 1, Rung: "primary", Attempt: 1})
	f.Add(event.Event{At: sec(11), Kind: event.AttemptEnd, Email: 1, Rung: "primary", Attempt: 1, Outcome: event.OK, Status: 200})
	f.Add(event.Event{At: sec(11), Kind: event.EmailDone, Email: 1, Result: &event.Result{ServedBy: "primary", Answer: &truth, Wait: sec(1)}})
	f.Add(event.Event{At: sec(12), Kind: event.RunEnd, End: &event.RunEndInfo{Status: event.StatusCompleted, NotSent: 1}})
	s := f.Summary()
	if s.OutageBasis != BasisObserved || len(s.Observed) != 1 {
		t.Fatalf("basis %s, observed %+v; want one observed window", s.OutageBasis, s.Observed)
	}
	if s.CallsToBrokenOutage != 1 || s.Observed[0].CallsInWindow != 1 || !f.InOutage(sec(10)) || s.WaitsOutage != 1 {
		t.Errorf("calls_to_broken_outage %d, calls_in_window %d, in the outage at 10 s %v, waits_outage %d; want 1, 1, true, 1",
			s.CallsToBrokenOutage, s.Observed[0].CallsInWindow, f.InOutage(sec(10)), s.WaitsOutage)
	}
}

// TestProxyUsageIsTheRunsTokens: the tokens and cost a proxied call
// records are the run's tokens and cost, as the request rows show them;
// the summary said 0 while the request lines said 8 in, 45 out.
func TestProxyUsageIsTheRunsTokens(t *testing.T) {
	f := NewFold()
	f.Add(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Outage: "none", Policy: "proxy", Target: "proxy"}})
	call := &event.ProxyCall{ID: 1, Method: "POST", Path: "/v1/chat/completions"}
	f.Add(event.Event{Kind: event.AttemptStart, Rung: "proxy", Model: "gpt-5.4-mini", Proxy: call})
	end := *call
	end.InputTokens, end.OutputTokens, end.Cost, end.Priced = 8, 45, 0.000092, true
	f.Add(event.Event{At: sec(1), Kind: event.AttemptEnd, Rung: "proxy", Model: "gpt-5.4-mini", Outcome: event.OK, Status: 200, Proxy: &end})
	s := f.Summary()
	if s.Tokens.Input != 8 || s.Tokens.Output != 45 || s.Cost.Total != 0.000092 || !s.Cost.Known() {
		t.Errorf("tokens %+v, cost %+v; want 8 in, 45 out, 0.000092 priced", s.Tokens, s.Cost)
	}
}
