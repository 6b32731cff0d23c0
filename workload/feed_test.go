package workload

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
)

// TestFeedSendsTheEmailsItIsGiven: a run fed email indices sends exactly
// those, each at its due time (i / rate) or at once when it comes late,
// and its arrivals end when the feed closes.
func TestFeedSendsTheEmailsItIsGiven(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := chapterConfig(t, OutageNone, "fallback")
		cfg.Emails, cfg.Rate, cfg.Follow = 10, 2, 0
		feed := make(chan int)
		cfg.Feed = feed
		r, err := Start(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			feed <- 1 // due at 0.5 s
			feed <- 4 // taken at 0.5 s, due at 2 s
			time.Sleep(4 * time.Second)
			feed <- 0 // late: due at 0 s, sent at once at 4.5 s
			close(feed)
		}()
		_, status, evs := finish(t, r)
		if status != event.StatusCompleted {
			t.Errorf("status %s, want completed", status)
		}
		want := map[int]time.Duration{2: 500 * time.Millisecond, 5: 2 * time.Second, 1: 4500 * time.Millisecond}
		sent, done := map[int]time.Duration{}, 0
		for _, e := range evs {
			switch e.Kind {
			case event.EmailSent:
				sent[e.Email] = e.At
			case event.EmailDone:
				done++
			case event.RunEnd:
				if e.End.NotSent != 0 {
					t.Errorf("not sent %d, want 0: a fed run sends what it is fed", e.End.NotSent)
				}
			}
		}
		if len(sent) != len(want) || done != len(want) {
			t.Fatalf("sent %v, %d done; want emails %v", sent, done, want)
		}
		for id, at := range want {
			if sent[id] != at {
				t.Errorf("email %d sent at %v, want %v", id, sent[id], at)
			}
		}
	})
}
