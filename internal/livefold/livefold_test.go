package livefold_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal/journaltest"
	"github.com/drill-dev/drill/internal/livefold"
	"github.com/drill-dev/drill/scoring"
)

// TestFollowGivesTheWholeLogsSummary appends a synthetic run while the fold
// follows it, and checks the fold's summary against folding the finished
// log in one pass.
func TestFollowGivesTheWholeLogsSummary(t *testing.T) {
	evs := journaltest.Run(journaltest.Options{Emails: 5000, Rate: 10, From: 100, To: 400, Breaker: true, Seed: 7})
	log := event.NewLog(time.Now())
	live := livefold.Follow(log)
	for i, e := range evs {
		log.AppendRecorded(e)
		if i%1000 == 0 {
			time.Sleep(time.Millisecond) // let the fold catch up, then fall behind again
		}
	}
	log.Close()
	got := live.Wait().Summary()

	whole := scoring.NewFold()
	whole.AddLog(log)
	want := whole.Summary()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Fatalf("live summary differs from the whole log's:\n got %s\nwant %s", g, w)
	}
	if got.Emails != 5000 {
		t.Fatalf("live summary has %d emails, want 5000", got.Emails)
	}
}

// TestReadWhileFollowing reads the fold while it follows a log being
// appended to (run with -race): each read sees a prefix of the log.
func TestReadWhileFollowing(t *testing.T) {
	evs := journaltest.Run(journaltest.Options{Emails: 500, Rate: 10, From: 10, To: 40, Seed: 7})
	log := event.NewLog(time.Now())
	live := livefold.Follow(log)
	last := 0
	for i, e := range evs {
		log.AppendRecorded(e)
		if i%50 == 0 {
			live.Read(func(f *scoring.Fold) {
				sent := f.Summary().EmailsSent
				if sent < last {
					t.Errorf("emails sent went back from %d to %d", last, sent)
				}
				last = sent
			})
		}
	}
	log.Close()
	if got := live.Wait().Summary().EmailsSent; got != 500 {
		t.Errorf("%d emails sent at the end, want 500", got)
	}
}
