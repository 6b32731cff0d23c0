package plain

import (
	"strings"
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// TestSummaryCountsRejectedApart: the served row counts the emails the
// worker pool turned away apart from the answered ones ("of 70 answered;
// 50 rejected"), as the status does; it said "of 120 answered, 50 of them
// rejected", counting them answered.
func TestSummaryCountsRejectedApart(t *testing.T) {
	s := scoring.Summary{Status: "completed", Emails: 120, EmailsSent: 120, EmailsAnswered: 70, Rejected: 50,
		Served: scoring.Served{Primary: 70, Rejected: 50}, OutageBasis: scoring.BasisInjected,
		OutageWindows: []scoring.WindowSummary{{Fault: "hang", StartS: 3}}}
	var b strings.Builder
	if err := Summary(&b, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"70 / 0 / 0 / 0 of 70 answered; 50 rejected by the worker pool", "completed: 120 of 120 sent, 70 answered, 50 rejected"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
}

// TestSummaryCutOff: emails the run's end cut off are reported as cut off
// in the served row and the status.
func TestSummaryCutOff(t *testing.T) {
	s := scoring.Summary{Status: "interrupted", Emails: 120, EmailsSent: 74, EmailsAnswered: 45, NotSent: 46, NotSentReason: "run stopped",
		NeverAnswered: 29, CutOff: 29, Served: scoring.Served{Primary: 30, Backup: 15, Cancelled: 29}, OutageBasis: scoring.BasisInjected}
	var b strings.Builder
	if err := Summary(&b, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"of 45 answered; 29 cut off by the run's end", "45 answered, 29 cut off"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
}

// TestSummaryWithoutOutage: a run with no outage (basis none) reports its
// failed calls as failures, never as calls to a broken model or a first
// open after an outage's start.
func TestSummaryWithoutOutage(t *testing.T) {
	s := scoring.Summary{Status: "completed", Outage: "none", OutageBasis: scoring.BasisNone, BreakerOpens: 8,
		Observed: []scoring.ObservedSummary{{Rung: "primary", Model: "gpt-5.4-mini", StartS: 1, EndS: 58, FailedAttempts: 29, Attempts: 42}}}
	var b strings.Builder
	if err := Summary(&b, s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"broken model", "after outage start", "observed failures"} {
		if strings.Contains(out, bad) {
			t.Errorf("a run without an outage says %q:\n%s", bad, out)
		}
	}
	if want := "29 of 42 calls to gpt-5.4-mini failed"; !strings.Contains(out, want) {
		t.Errorf("summary lacks %q:\n%s", want, out)
	}
}

// TestFollowedCutOff: the followed email the run's end cut off reads "cut
// off", as every other view names it.
func TestFollowedCutOff(t *testing.T) {
	sent, wait := 17.0, 20.0
	if got := Followed(scoring.Followed{Email: 35, SentS: &sent, WaitS: &wait, ServedBy: "cancelled"}); got != "cut off, 20.0 s" {
		t.Errorf("followed %q, want cut off, 20.0 s", got)
	}
}
