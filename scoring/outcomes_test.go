package scoring

import (
	"testing"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

// poolRun is a run with a worker pool of 2: emails 1 and 2 take the two
// workers and are answered right by the primary; email 3 and 4 arrive while
// both are busy and are turned away, each rejection logged a moment after
// its email_sent (as on the real clock).
func poolRun() []event.Event {
	all := emails.All()
	t1, t2, t3, t4 := all[0].Truth, all[1].Truth, all[2].Truth, all[3].Truth
	return []event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Outage: "none", Emails: 4, MaxInFlight: 2, Target: "primary",
			Rungs: []event.Rung{{Name: "primary", Model: "m", BuiltIn: true}}}},
		{At: sec(0), Kind: event.EmailSent, Email: 1, Truth: &t1},
		{At: sec(0.1), Kind: event.EmailSent, Email: 2, Truth: &t2},
		{At: sec(0.2), Kind: event.EmailSent, Email: 3, Truth: &t3, Rejected: true},
		{At: sec(0.2001), Kind: event.EmailDone, Email: 3, Result: &event.Result{ServedBy: event.ServedRejected, Wait: sec(0.0001)}},
		{At: sec(0.3), Kind: event.EmailSent, Email: 4, Truth: &t4, Rejected: true},
		{At: sec(0.3001), Kind: event.EmailDone, Email: 4, Result: &event.Result{ServedBy: event.ServedRejected, Wait: sec(0.0001)}},
		{At: sec(1), Kind: event.EmailDone, Email: 1, Result: &event.Result{ServedBy: event.ServedPrimary, Answer: &t1, Wait: sec(1)}},
		{At: sec(1.1), Kind: event.EmailDone, Email: 2, Result: &event.Result{ServedBy: event.ServedPrimary, Answer: &t2, Wait: sec(1)}},
		{At: sec(2), Kind: event.RunEnd, End: &event.RunEndInfo{Status: event.StatusCompleted}},
	}
}

// TestRejectedIsNotAnswered: emails the worker pool turned away are counted
// apart: not answered, not in quality's denominator (both answers were
// right: 100 %, not 50 %), and never in flight (the pool of 2 never held
// 3). The fold counted them answered and wrong, and the email between its
// email_sent and its rejection in flight.
func TestRejectedIsNotAnswered(t *testing.T) {
	f := NewFold()
	f.AddAll(poolRun())
	s := f.Summary()
	if s.EmailsAnswered != 2 || s.Rejected != 2 || s.Served.Rejected != 2 || s.NeverAnswered != 0 || s.CutOff != 0 {
		t.Errorf("answered %d, rejected %d (served %d), never answered %d, cut off %d; want 2, 2 (2), 0, 0",
			s.EmailsAnswered, s.Rejected, s.Served.Rejected, s.NeverAnswered, s.CutOff)
	}
	if q := f.Quality(); q.N != s.EmailsAnswered || q.All4 != 2 || s.All4Right != 1 {
		t.Errorf("quality %d of %d (all4_right %v); want 2 of the 2 answered (1)", q.All4, q.N, s.All4Right)
	}
	if n := f.Served().Answered(); n != 2 || f.Served().Total() != 4 {
		t.Errorf("Served.Answered %d, Total %d; want 2, 4", n, f.Served().Total())
	}
	if s.InFlight == nil || s.InFlight.PeakEmails != 2 {
		t.Errorf("in_flight %+v; want peak_emails 2 (the pool's size)", s.InFlight)
	}
	figs, err := FiguresOf(s)
	if err != nil {
		t.Fatal(err)
	}
	if figs["answered"] != 2.0 || figs["primary_share"] != 1.0 || figs["rejected"] != 2.0 {
		t.Errorf("figures answered %v, primary_share %v, rejected %v; want 2, 1, 2", figs["answered"], figs["primary_share"], figs["rejected"])
	}
}

// TestCutOffEmailsAreApart: emails the run's stop cut off are counted as
// cut off (cut_off, served.cancelled), not answered and not in quality.
func TestCutOffEmailsAreApart(t *testing.T) {
	truth := emails.All()[0].Truth
	f := NewFold()
	f.AddAll([]event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Outage: "hang", Emails: 3, Target: "primary"}},
		{At: sec(0), Kind: event.EmailSent, Email: 1, Truth: &truth},
		{At: sec(0.5), Kind: event.EmailSent, Email: 2, Truth: &truth},
		{At: sec(1), Kind: event.EmailDone, Email: 1, Result: &event.Result{ServedBy: event.ServedPrimary, Answer: &truth, Wait: sec(1)}},
		{At: sec(3), Kind: event.EmailDone, Email: 2, Result: &event.Result{ServedBy: event.ServedError, Wait: sec(2.5), Cancelled: true}},
		{At: sec(3), Kind: event.RunEnd, End: &event.RunEndInfo{Status: event.StatusInterrupted, NotSent: 1, NotSentReason: event.NotSentStopped}},
	})
	s := f.Summary()
	if s.CutOff != 1 || s.EmailsAnswered != 1 || s.NeverAnswered != 1 || s.All4Right != 1 {
		t.Errorf("cut_off %d, answered %d, never answered %d, all4 %v; want 1, 1, 1, 1", s.CutOff, s.EmailsAnswered, s.NeverAnswered, s.All4Right)
	}
}

// TestNoOutageNoBrokenModel: on the built-in model with no outage, a time
// limit below the model's latency makes failures, and they stay failures:
// no observed "outage", no calls to a broken model, no first open into an
// outage. The fold took the failures for an observed outage.
func TestNoOutageNoBrokenModel(t *testing.T) {
	for _, builtIn := range []bool{true, false} {
		f := NewFold()
		f.Add(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Outage: "none", Emails: 1, Target: "primary",
			Rungs: []event.Rung{{Name: "primary", Model: "m", HasBreaker: true, BuiltIn: builtIn}}}})
		f.Add(event.Event{At: sec(0), Kind: event.EmailSent, Email: 1})
		for i := range 5 {
			at := sec(float64(i))
			f.Add(event.Event{At: at, Kind: event.AttemptStart, Email: 1, Rung: "primary", Attempt: i})
			f.Add(event.Event{At: at + sec(1), Kind: event.AttemptEnd, Email: 1, Rung: "primary", Attempt: i, Outcome: event.Timeout})
		}
		f.Add(event.Event{At: sec(5), Kind: event.BreakerChange, Breaker: &event.BreakerState{Name: "primary", From: "closed", To: "open"}})
		f.Add(event.Event{At: sec(6), Kind: event.EmailDone, Email: 1, Result: &event.Result{ServedBy: event.ServedError, Wait: sec(6)}})
		f.Add(event.Event{At: sec(6), Kind: event.RunEnd, End: &event.RunEndInfo{Status: event.StatusCompleted}})
		s := f.Summary()
		if !builtIn {
			// A real endpoint failing on its own is an outage drill did not
			// inject: the observed basis stays.
			if s.OutageBasis != BasisObserved || s.CallsToBrokenOutage != 5 {
				t.Errorf("real endpoint: basis %s, calls to broken %d; want observed, 5", s.OutageBasis, s.CallsToBrokenOutage)
			}
			continue
		}
		if s.OutageBasis != BasisNone || s.CallsToBrokenOutage != 0 || s.BreakerFirstOpenS != nil || f.FirstOpen("primary") != nil || f.InOutage(sec(1)) {
			t.Errorf("built-in model, no outage: basis %s, calls to broken %d, first open %v; want none, 0, null",
				s.OutageBasis, s.CallsToBrokenOutage, s.BreakerFirstOpenS)
		}
		if len(s.Observed) != 1 || s.Observed[0].FailedAttempts != 5 || s.Observed[0].BreakerFirstOpenS != nil {
			t.Errorf("observed %+v; want the primary's 5 failed calls, with no first open into an outage", s.Observed)
		}
		if !f.NoOutage() || f.FailedAttempts() != 5 {
			t.Errorf("NoOutage %v, FailedAttempts %d; want true, 5", f.NoOutage(), f.FailedAttempts())
		}
	}
}

// TestCutOffConversationsAreNotSilent: conversations the run's end cut off
// (q on a chat drill) are cut off, not silent, whether the journal logs
// them as cut_off or (older journals) as silent with the reason "run
// ended"; a conversation that really ended silent stays silent.
func TestCutOffConversationsAreNotSilent(t *testing.T) {
	s := sec(1)
	f := NewChatFold(3)
	for _, e := range []event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Workload: event.WorkloadChat, Outage: "mixed"}},
		{At: 0, Kind: event.ConversationStart, Chat: &event.Chat{Conversation: 1}},
		{At: s, Kind: event.ConversationStart, Chat: &event.Chat{Conversation: 2}},
		{At: 2 * s, Kind: event.ConversationStart, Chat: &event.Chat{Conversation: 3}},
		{At: 30 * s, Kind: event.ConversationEnd, Chat: &event.Chat{Conversation: 1, Elapsed: 30 * s, Ending: event.EndingSilent, Reason: event.StopModelFailed}},
		{At: 50 * s, Kind: event.ConversationEnd, Chat: &event.Chat{Conversation: 2, Elapsed: 49 * s, Ending: event.EndingCutOff, Reason: event.StopCanceled}},
		{At: 50 * s, Kind: event.ConversationEnd, Chat: &event.Chat{Conversation: 3, Elapsed: 48 * s, Ending: event.EndingSilent, Reason: event.StopCanceled}},
		{At: 50 * s, Kind: event.RunEnd, Detail: event.StatusInterrupted},
	} {
		f.Add(e)
	}
	sum := f.Summary()
	if sum.Silent != 1 || sum.CutOff != 2 || sum.Stopped[event.StopCanceled] != 2 {
		t.Errorf("silent %d, cut off %d, stopped %v; want 1, 2, run ended ×2", sum.Silent, sum.CutOff, sum.Stopped)
	}
	if r, _ := f.Row(3); r.Ending != event.EndingCutOff {
		t.Errorf("conversation 3 (an older journal's silent, run ended) ends %q; want cut_off", r.Ending)
	}
	if bars := Chart(f.Rows()); len(bars) != 1 || bars[0].Silent != 1 {
		t.Errorf("chart %+v; want one bar with the one silent ending", bars)
	}
	if tr := f.Trace(); len(tr) != 1 || tr[0].Outcome != "cut_off (run ended)" {
		t.Errorf("trace %+v; want the ending cut_off (run ended)", tr)
	}
}

// TestOlderSummariesGetTheNewKeys: a summary recorded before rejected and
// cut_off existed reads with them from its served counts; a newer one
// keeps what it says.
func TestOlderSummariesGetTheNewKeys(t *testing.T) {
	old, err := DecodeSummary([]byte(`{"served":{"cancelled":3,"rejected":2}}`))
	if err != nil {
		t.Fatal(err)
	}
	cur, err := DecodeSummary([]byte(`{"rejected":0,"cut_off":0,"served":{"cancelled":3,"rejected":2}}`))
	if err != nil {
		t.Fatal(err)
	}
	if old.CutOff != 3 || old.Rejected != 2 || cur.CutOff != 0 || cur.Rejected != 0 {
		t.Errorf("older summary cut off %d, rejected %d (want 3, 2); newer %d, %d (want 0, 0)", old.CutOff, old.Rejected, cur.CutOff, cur.Rejected)
	}
}
