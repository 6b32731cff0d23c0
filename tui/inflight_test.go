package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// poolState is a run with a pool of 2 workers: two emails on the primary
// (one call each, the first ended after 1 s) and a third rejected.
func poolState() *state {
	s := newState(nil)
	s.addAll([]event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Emails: 3, Rate: 2, MaxInFlight: 2,
			Rungs: []event.Rung{{Name: "primary", Model: "m"}, {Name: "backup", Model: "n"}}}},
		{At: secs(0), Kind: event.EmailSent, Email: 1},
		{At: secs(0), Kind: event.RungStart, Email: 1, Rung: "primary"},
		{At: secs(0), Kind: event.AttemptStart, Email: 1, Rung: "primary"},
		{At: secs(0.5), Kind: event.EmailSent, Email: 2},
		{At: secs(0.5), Kind: event.RungStart, Email: 2, Rung: "primary"},
		{At: secs(0.5), Kind: event.AttemptStart, Email: 2, Rung: "primary"},
		{At: secs(1), Kind: event.EmailSent, Email: 3},
		{At: secs(1), Kind: event.EmailDone, Email: 3, Result: &event.Result{ServedBy: event.ServedRejected}},
		{At: secs(1), Kind: event.AttemptEnd, Email: 1, Rung: "primary", Outcome: event.OK},
		{At: secs(1), Kind: event.RungEnd, Email: 1, Rung: "primary", Outcome: event.OK},
		{At: secs(1), Kind: event.EmailDone, Email: 1, Result: &event.Result{ServedBy: "primary", Wait: secs(1)}},
	})
	return s
}

// TestInFlightGauge: the gauge says the emails in flight against the pool,
// the rejections, and per rung the calls and emails in flight with λ × W,
// each line within the pane's width.
func TestInFlightGauge(t *testing.T) {
	st := asciiStyles()
	lines := renderInFlight(st, poolState(), 70, secs(1))
	text := strings.Join(lines, "\n")
	for _, want := range []string{"emails in flight 1 of 2 workers", "rejected 1", "1 calls · 1 emails", "λ×W 2.0×1.0 s = 2.0"} {
		if !strings.Contains(text, want) {
			t.Errorf("gauge lacks %q:\n%s", want, text)
		}
	}
	if len(lines) != inflightHeight-2 {
		t.Errorf("%d lines, want the pane's %d", len(lines), inflightHeight-2)
	}
	for _, l := range lines {
		if w := cellWidth(l); w > 70 {
			t.Errorf("line %q is %d cells wide, want at most 70", l, w)
		}
	}
}

// baselineStub is a baseline that is ready with fixed figures.
type baselineStub struct{ sum scoring.BaselineSummary }

func (b baselineStub) Name() string { return "no-breakers" }
func (b baselineStub) At(time.Duration, bool) (scoring.BaselineSummary, bool) {
	return b.sum, true
}
func (b baselineStub) Email(int) (scoring.EmailRecord, bool) { return scoring.EmailRecord{}, false }

// TestBaselineBesideLive: the header, Breaker and Quality lines put the
// baseline's figures beside the live ones; without a baseline nothing is
// added.
func TestBaselineBesideLive(t *testing.T) {
	st := asciiStyles()
	s := poolState()
	if v := baselineAt(nil, s, secs(1)); v.headlineSegment(st) != "" || v.breakerLines(st, s, 60) != nil || v.qualityLines(60) != nil {
		t.Error("lines shown without a baseline")
	}
	// An outage on: with none, only the breaker opens compare.
	s.addAll([]event.Event{{At: secs(1), Kind: event.OutageStart, Rung: "primary", Fault: "hang"}})
	s.baseline = baselineAt(baselineStub{scoring.BaselineSummary{Basis: scoring.BaselineReplayed,
		BaselineMeasured: &scoring.BaselineMeasured{CallsToBrokenOutage: 148, Served: scoring.Served{Primary: 72, Backup: 48}, EmailsAnswered: 120, All4Right: 0.925}}}, s, secs(1))
	text := strings.Join(append(append([]string{s.baseline.headlineSegment(st)}, s.baseline.breakerLines(st, s, 60)...), s.baseline.qualityLines(60)...), "\n")
	for _, want := range []string{"vs 148 without breakers", "live 0, without breakers 148", "P 72  B 48", "all 4 right 93%"} {
		if !strings.Contains(text, want) {
			t.Errorf("baseline lines lack %q:\n%s", want, text)
		}
	}
}
