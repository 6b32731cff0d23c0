package scoring

import (
	"testing"

	"github.com/drill-dev/drill/event"
)

// TestSafeguardComesFromRunEnd: the safeguard that aborted a run is a fact
// of the fold, read from run_end; a ceiling, an interrupt or a completed
// run names none.
func TestSafeguardComesFromRunEnd(t *testing.T) {
	for _, tc := range []struct {
		end  event.Event
		want string
	}{
		{event.Event{Kind: event.RunEnd, Detail: "aborted: max spend 0.000400: the next call would go over",
			End: &event.RunEndInfo{Status: event.StatusAborted}}, "max spend 0.000400: the next call would go over"},
		{event.Event{Kind: event.RunEnd, Detail: "ceiling of 2m40s reached: emails in flight cancelled",
			End: &event.RunEndInfo{Status: event.StatusAborted}}, ""},
		{event.Event{Kind: event.RunEnd, Detail: "interrupted", End: &event.RunEndInfo{Status: event.StatusInterrupted}}, ""},
		{event.Event{Kind: event.RunEnd, Detail: "all emails done", End: &event.RunEndInfo{Status: event.StatusCompleted}}, ""},
	} {
		f := NewFold()
		f.Add(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Outage: "none", Emails: 1}})
		f.Add(tc.end)
		if got := f.Safeguard(); got != tc.want {
			t.Errorf("%q: Safeguard %q, want %q", tc.end.Detail, got, tc.want)
		}
		if got := f.Summary().Safeguard; got != tc.want {
			t.Errorf("%q: summary safeguard %q, want %q", tc.end.Detail, got, tc.want)
		}
	}
}
