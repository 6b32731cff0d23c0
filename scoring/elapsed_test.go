package scoring

import (
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
)

func TestWaitAtAndTookAt(t *testing.T) {
	s := time.Second
	waiting := &EmailRecord{Sent: 2 * s}
	done := &EmailRecord{Sent: 2 * s, Done: true, DoneAt: 9 * s, Result: event.Result{Wait: 6 * s}}
	for _, tc := range []struct {
		name      string
		got, want time.Duration
	}{
		{"waiting", waiting.WaitAt(5 * s), 3 * s},
		{"waiting, clock behind", waiting.WaitAt(s), 0},
		{"done: the recorded wait", done.WaitAt(30 * s), 6 * s},
		{"attempt ended", Attempt{Start: s, End: 4 * s, Ended: true}.TookAt(30 * s), 3 * s},
		{"attempt running", Attempt{Start: s}.TookAt(5 * s), 4 * s},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

// A running conversation's time grows with the clock; an ended one's is its
// whole time.
func TestConversationTimeAt(t *testing.T) {
	running := ConversationRow{Start: 10 * time.Second, Running: true}
	ended := ConversationRow{Start: 10 * time.Second, Time: 4 * time.Second}
	if got := running.TimeAt(25 * time.Second); got != 15*time.Second {
		t.Errorf("running at 25 s: %s, want 15s", got)
	}
	if got := running.TimeAt(5 * time.Second); got != 0 {
		t.Errorf("running, clock before its start: %s, want 0", got)
	}
	if got := ended.TimeAt(time.Hour); got != 4*time.Second {
		t.Errorf("ended: %s, want 4s", got)
	}
}
