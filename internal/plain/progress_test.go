package plain

import (
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// TestProgressDoesNotCountCancelledAsAnswered: of five emails sent, two
// answered, two cut off by the end of the run and one in flight, the line
// says answered 2 and cancelled 2.
func TestProgressDoesNotCountCancelledAsAnswered(t *testing.T) {
	f := scoring.NewFold()
	f.Add(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Emails: 5, Target: event.ServedPrimary,
		Rungs: []event.Rung{{Name: event.ServedPrimary, HasBreaker: true}}}})
	for id := 1; id <= 5; id++ {
		f.Add(event.Event{Kind: event.EmailSent, Email: id})
	}
	done := func(id int, res event.Result) {
		f.Add(event.Event{Kind: event.EmailDone, Email: id, Result: &res})
	}
	done(1, event.Result{ServedBy: event.ServedPrimary, Wait: time.Second})
	done(2, event.Result{ServedBy: event.ServedBackup, Wait: time.Second})
	done(3, event.Result{ServedBy: event.ServedError, Cancelled: true})
	done(4, event.Result{ServedBy: event.ServedError, Cancelled: true})
	done(5, event.Result{ServedBy: event.ServedRejected})
	line := Progress(f, 3*time.Second)
	for _, want := range []string{"sent 5/5", "answered 2 ", "rejected 1", "cut off 2"} {
		if !strings.Contains(line+" ", want) {
			t.Errorf("progress line %q lacks %q", line, want)
		}
	}
}
