package tui

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
)

// TestQuitEndsEarlyCtrlCInterrupts: on a live drill, q stops the run and
// says it ended early (a normal end, judged on what ran: exit 0 or 1);
// ctrl+c stops it as an interruption (exit 130).
func TestQuitEndsEarlyCtrlCInterrupts(t *testing.T) {
	for _, c := range []struct {
		name, in string
		early    bool
	}{{"q", "q", true}, {"ctrl+c", "\x03", false}} {
		t.Run(c.name, func(t *testing.T) {
			log := event.NewLog(time.Now())
			log.Append(event.Event{Kind: event.RunStart})
			ctl := &fakeControls{}
			early, err := Run(t.Context(), Source{Log: log, Controls: ctl},
				Options{Input: strings.NewReader(c.in), Output: io.Discard, NoAltScreen: true, Tick: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if early != c.early || len(ctl.calls) == 0 || ctl.calls[0] != "stop" {
				t.Errorf("%s: early %v, controls %v; want early %v and the run stopped", c.name, early, ctl.calls, c.early)
			}
		})
	}
}

// TestLiveChatQuitEndsEarly: in the live Conversations view, q on a drill
// still running says it ended early (exit by the verdict), ctrl+c does not
// (exit 130).
func TestLiveChatQuitEndsEarly(t *testing.T) {
	for _, c := range []struct {
		name, in string
		early    bool
	}{{"q", "q", true}, {"ctrl+c", "\x03", false}} {
		t.Run(c.name, func(t *testing.T) {
			log := event.NewLog(time.Now()) // never closed: the drill is still going
			log.Append(event.Event{Kind: event.RunStart})
			early, err := LiveChat(t.Context(), log,
				Options{Input: strings.NewReader(c.in), Output: io.Discard, NoAltScreen: true, Tick: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if early != c.early {
				t.Errorf("%s: early %v, want %v", c.name, early, c.early)
			}
		})
	}
}
