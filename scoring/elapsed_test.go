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
