package tui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// chatJournal is a recorded chat drill (drill run --workload chat --clock
// virtual --conversations 40 --conversation-rate 0.1 --policy
// agent-all-checks --tool-breakers --tool-outage carrier=hang): the
// incident from 300 s opens the primary's breaker and the carrier's.
const chatJournal = "testdata/chat/all-checks.jsonl"

// playedChat is the Conversations view pacing the chat journal, paused at
// at (past the end: the end), w×h.
func playedChat(t testing.TB, at time.Duration, w, h int) (*ConversationsView, []event.Event) {
	t.Helper()
	j, err := journal.ReadFile(chatJournal)
	if err != nil {
		t.Fatal(err)
	}
	f := newReplayFeed(j.Events, 20)
	f.pos, f.paused = min(at, f.end), true
	v := newConversations(asciiStyles(), f, 0)
	v.Update(tea.WindowSizeMsg{Width: w, Height: h})
	v.Update(tickMsg{T: time.Unix(0, 0)})
	return v, j.Events
}

// The chat dashboard's frames at the three sizes, mid-incident and at the
// end, as tmux shows them. Run with -update to rewrite them.
func TestGoldenChatFrames(t *testing.T) {
	for _, at := range []time.Duration{330 * time.Second, time.Hour} {
		for _, size := range [][2]int{{80, 24}, {120, 40}, {160, 48}} {
			name := fmt.Sprintf("%dx%d-%s", size[0], size[1], map[bool]string{true: "end", false: "330s"}[at == time.Hour])
			t.Run(name, func(t *testing.T) {
				v, _ := playedChat(t, at, size[0], size[1])
				got := v.View()
				checkFrame(t, got, size[0], size[1])
				golden.RequireEqual(t, []byte(got+"\n"))
			})
		}
	}
}

// The header's figures are the fold's over the events read so far, never
// the view's own.
func TestChatHeaderIsTheFold(t *testing.T) {
	for _, at := range []time.Duration{100 * time.Second, 330 * time.Second, time.Hour} {
		v, events := playedChat(t, at, 160, 48)
		var seen []event.Event
		for _, e := range events {
			if e.At <= at {
				seen = append(seen, e)
			}
		}
		want := scoring.FoldChat(seen)
		if fmt.Sprint(v.sum) != fmt.Sprint(want) {
			t.Errorf("at %v the view's figures %+v are not the fold's %+v", at, v.sum, want)
		}
		head := strings.Join(v.header(), "\n")
		for _, seg := range []string{
			fmt.Sprintf("answered %d", want.Answered), fmt.Sprintf("handed over %d", want.HandedOver),
			fmt.Sprintf("silent %d", want.Silent), fmt.Sprintf("turn limit %d", want.TurnLimit),
			fmt.Sprintf("over 2 min %d", want.Over120s), "tokens " + format.Millions(float64(want.TokensBilled)),
		} {
			if !strings.Contains(head, seg) {
				t.Errorf("at %v the header lacks %q:\n%s", at, seg, head)
			}
		}
	}
	v, events := playedChat(t, time.Hour, 160, 48)
	opens := scoring.FoldChat(events).BreakerOpens
	if opens["carrier"] == 0 || opens["primary"] == 0 {
		t.Fatalf("the recording's breakers opened %v; the test needs both the carrier's and the primary's", opens)
	}
	want := fmt.Sprintf("breaker opens: carrier %d, primary %d", opens["carrier"], opens["primary"])
	if head := strings.Join(v.header(), "\n"); !strings.Contains(head, want) {
		t.Errorf("the header lacks %q:\n%s", want, head)
	}
}

// A live view follows the log as the drill appends to it: rows appear and
// end, the selection follows the newest, an open trace keeps growing, and
// the view stops reading once the log is closed.
func TestLiveChatFollowsTheLog(t *testing.T) {
	start := time.Unix(1000, 0)
	log := event.NewLog(start)
	cur := log.Cursor()
	defer cur.Close()
	v := newConversations(asciiStyles(), &liveFeed{log: log, cur: cur}, 0)
	v.Update(tea.WindowSizeMsg{Width: 120, Height: 20})
	if v.Init() == nil {
		t.Fatal("a live view does not start reading its log")
	}
	tick := func(at time.Duration) tea.Cmd {
		_, cmd := v.Update(tickMsg{T: start.Add(at)})
		return cmd
	}
	for _, e := range chatRun()[:4] {
		log.AppendRecorded(e)
	}
	if tick(3*time.Second) == nil {
		t.Fatal("the view stopped reading a running drill")
	}
	if len(v.rows) != 2 || !v.rows[1].Running || v.sel != 1 {
		t.Fatalf("rows %+v, selection %d: want 2 running, the newest selected", v.rows, v.sel)
	}
	if got := v.View(); !strings.Contains(got, "▸     2    1.0 s    2.0 s     0       0  running") || !strings.Contains(got, "running 3.0 s") {
		t.Errorf("a running conversation's row or the clock is missing:\n%s", got)
	}
	_, cmd := v.Update(tea.KeyMsg{Type: tea.KeyEnter})
	v.Update(cmd())
	if v.trace == nil || len(v.trace.Steps) != 1 {
		t.Fatalf("the trace of conversation 2 is %+v, want its one attempt so far", v.trace)
	}
	for _, e := range chatRun()[4:] {
		log.AppendRecorded(e)
	}
	log.Close()
	if tick(22*time.Second) != nil {
		t.Error("the view still ticks after the log closed")
	}
	if !v.done || v.sum.Answered != 1 || v.sum.Silent != 1 {
		t.Errorf("done %v, figures %+v: want the final ones", v.done, v.sum)
	}
	if n := len(v.trace.Steps); n != 3 || !strings.Contains(v.View(), "silent (turn limit)") {
		t.Errorf("the open trace did not follow the log: %d steps\n%s", n, v.View())
	}
	if _, cmd := v.Update(tea.KeyMsg{Type: tea.KeyCtrlC}); cmd == nil {
		t.Error("ctrl+c does not quit")
	}
}

// A trace asked for and then closed before its fold arrives stays closed.
func TestChatTraceClosedBeforeItArrives(t *testing.T) {
	v := NewConversationsView(asciiStyles(), chatRun())
	v.Update(tea.WindowSizeMsg{Width: 100, Height: 12})
	_, cmd := v.Update(tea.KeyMsg{Type: tea.KeyEnter})
	v.Update(tea.KeyMsg{Type: tea.KeyEsc})
	v.Update(cmd())
	if v.trace != nil {
		t.Error("a closed trace reopened when its fold arrived")
	}
}

// The frame fits every size, the trace open or not.
func TestChatFrameSizes(t *testing.T) {
	v, _ := playedChat(t, time.Hour, 120, 40)
	for _, trace := range []bool{false, true} {
		if trace {
			_, cmd := v.Update(tea.KeyMsg{Type: tea.KeyEnter})
			v.Update(cmd())
		}
		for _, wh := range [][2]int{{80, 24}, {160, 48}, {60, 20}, {40, 12}, {20, 6}, {200, 60}} {
			v.Update(tea.WindowSizeMsg{Width: wh[0], Height: wh[1]})
			checkFrame(t, v.View(), wh[0], wh[1])
		}
	}
}

// TestSmokeLiveChat drives the whole program over a log that a drill
// fills as it goes (the recorded chat drill, appended in batches): the
// figures reach the end, enter opens a trace, esc goes back and q quits.
func TestSmokeLiveChat(t *testing.T) {
	j, err := journal.ReadFile(chatJournal)
	if err != nil {
		t.Fatal(err)
	}
	log := event.NewLog(time.Now())
	cur := log.Cursor()
	defer cur.Close()
	go func() {
		for i := 0; i < len(j.Events); i += 200 {
			for _, e := range j.Events[i:min(i+200, len(j.Events))] {
				log.AppendRecorded(e)
			}
			time.Sleep(10 * time.Millisecond)
		}
		log.Close()
	}()
	v := newConversations(asciiStyles(), &liveFeed{log: log, cur: cur}, 20*time.Millisecond)
	tm := teatest.NewTestModel(t, v, teatest.WithInitialTermSize(120, 40))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("Conversations (40)")) && bytes.Contains(b, []byte("completed"))
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("Conversation 40")) },
		teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	final := tm.FinalModel(t).(*ConversationsView)
	if !final.done || final.trace != nil || fmt.Sprint(final.sum) != fmt.Sprint(scoring.FoldChat(j.Events)) {
		t.Errorf("final: done %v, trace open %v, figures %+v", final.done, final.trace != nil, final.sum)
	}
}
