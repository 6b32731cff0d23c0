package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

func chatRun() []event.Event {
	s := time.Second
	return []event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Workload: "chat", Outage: "mixed", Policy: "agent-defaults"}},
		{At: 0, Kind: event.ConversationStart, Chat: &event.Chat{Conversation: 1}},
		{At: 1 * s, Kind: event.ConversationStart, Chat: &event.Chat{Conversation: 2}},
		{At: 2 * s, Kind: event.ModelAttempt, Rung: "primary", Model: "gpt-5.4-mini", Fault: "slow", Chat: &event.Chat{Conversation: 2, Turn: 1, Elapsed: s, Step: event.StepInterpret}},
		{At: 3 * s, Kind: event.ModelAttempt, Rung: "primary", Model: "gpt-5.4-mini", Fault: "loop", Chat: &event.Chat{Conversation: 2, Turn: 2, Elapsed: 2 * s, Step: event.StepRepeat}},
		{At: 4 * s, Kind: event.ConversationEnd, Chat: &event.Chat{Conversation: 1, Elapsed: 4 * s, Ending: event.EndingAnswered, Turns: 4, PromptTokens: 1000, CompletionTokens: 100}},
		{At: 21 * s, Kind: event.ConversationEnd, Chat: &event.Chat{Conversation: 2, Elapsed: 20 * s, Ending: event.EndingSilent, Reason: event.StopTurnLimit, Turns: 10, PromptTokens: 6000, CompletionTokens: 200}},
	}
}

func TestConversationsPaneRows(t *testing.T) {
	v := NewConversationsView(asciiStyles(), chatRun())
	v.Update(tea.WindowSizeMsg{Width: 120, Height: 10})
	got := v.View()
	for _, want := range []string{
		"drill · chat · agent-defaults · mixed · seed 0 · real clock",
		"2 conversations · answered 1 · handed over 0 · silent 1 · turn limit 1 · p99 19.8 s · over 2 min 0",
		"breaker opens: none",
		"Conversations (2)",
		"▸     1    0.0 s    4.0 s     4    1100  answered",
		"      2    1.0 s   20.0 s    10    6200  silent: turn limit",
		"××××××××××××××××××××", // the slowest conversation's bar fills the axis
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the pane lacks %q:\n%s", want, got)
		}
	}
	lines := strings.Split(got, "\n")
	if len(lines) != 10 {
		t.Errorf("%d lines, want the terminal's 10", len(lines))
	}
	for _, l := range lines {
		if n := len([]rune(l)); n != 120 {
			t.Fatalf("line %q is %d cells, want 120", l, n)
		}
	}
}

func TestConversationsPaneTraceOnEnter(t *testing.T) {
	v := NewConversationsView(asciiStyles(), chatRun())
	v.Update(tea.WindowSizeMsg{Width: 100, Height: 12})
	v.Update(tea.KeyMsg{Type: tea.KeyDown})
	_, cmd := v.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter loads no trace")
	}
	v.Update(cmd())
	got := v.View()
	for _, want := range []string{"Conversation 2", "started at 1.0 s, silent: turn limit after 20.0 s, 10 turns, 6200 tokens",
		"1.0s  1     primary gpt-5.4-mini         slow", "2.0s  2     primary gpt-5.4-mini         loop", "end"} {
		if !strings.Contains(got, want) {
			t.Errorf("the trace lacks %q:\n%s", want, got)
		}
	}
	v.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if v.trace != nil {
		t.Error("esc leaves the trace open")
	}
	if _, cmd := v.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")}); cmd == nil {
		t.Error("q does not quit")
	}
}

// TestConversationsHelpAndEsc: ? toggles the key help as in the other
// dashboards; esc on the list shows a hint and never quits (q and ctrl+c
// do); esc closes the help.
func TestConversationsHelpAndEsc(t *testing.T) {
	v := NewConversationsView(asciiStyles(), chatRun())
	v.Update(tea.WindowSizeMsg{Width: 160, Height: 24})
	if !strings.Contains(v.View(), "? help") {
		t.Errorf("the key line does not offer ? help:\n%s", v.View())
	}
	v.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")})
	if got := v.View(); !strings.Contains(got, "Help (? or esc closes)") || !strings.Contains(got, "enter      the selected conversation's trace") {
		t.Errorf("? shows no help:\n%s", got)
	}
	if _, cmd := v.Update(tea.KeyMsg{Type: tea.KeyEsc}); cmd != nil {
		t.Error("esc on the help returns a command")
	}
	if strings.Contains(v.View(), "Help (") {
		t.Error("esc leaves the help open")
	}
	if _, cmd := v.Update(tea.KeyMsg{Type: tea.KeyEsc}); cmd != nil {
		t.Error("esc on the conversation list quits")
	}
	if got := v.View(); !strings.Contains(got, "esc closes a trace or the help; q quits") {
		t.Errorf("esc on the list shows no hint:\n%s", got)
	}
	if lines := strings.Split(v.View(), "\n"); len(lines) != 24 {
		t.Errorf("%d lines, want 24", len(lines))
	}
	if _, cmd := v.Update(tea.KeyMsg{Type: tea.KeyCtrlC}); cmd == nil {
		t.Error("ctrl+c does not quit")
	}
}

// TestShortConversationHasABar: a conversation far shorter than the
// slowest still shows a cell of bar (it showed none, beside a neighbour of
// almost the same time that did).
func TestShortConversationHasABar(t *testing.T) {
	rows := []scoring.ConversationRow{{ID: 1, Time: 10 * time.Second, Ending: event.EndingAnswered}}
	lines := conversationLines(NewStyles(asciiRenderer()), rows, 0, -1, 80, 1, 175*time.Second, 0, window{})
	if len(lines) != 2 || !strings.Contains(lines[1], "█") {
		t.Errorf("no bar for a 10 s conversation on a 175 s axis:\n%s", strings.Join(lines, "\n"))
	}
}

// TestConversationsHeaderTotalAndAxis: the header says how many of the
// run's conversations have started, and the bars have a time axis, from 0
// to the slowest conversation.
func TestConversationsHeaderTotalAndAxis(t *testing.T) {
	events := chatRun()
	events[0].Run.Emails = 1000
	v := NewConversationsView(asciiStyles(), events)
	v.Update(tea.WindowSizeMsg{Width: 120, Height: 10})
	got := v.View()
	if !strings.Contains(got, "2 of 1000 conversations · answered 1") {
		t.Errorf("the header lacks the total:\n%s", got)
	}
	var head string
	for _, l := range strings.Split(got, "\n") {
		if strings.Contains(l, "outcome") {
			head = l
		}
	}
	if !strings.Contains(head, "0 s") || !strings.Contains(head, "10.0 s") || !strings.HasSuffix(strings.TrimRight(head, " |│┃"), "20.0 s") {
		t.Errorf("the column heads lack a time axis 0 s … 10.0 s … 20.0 s:\n%q", head)
	}
}

// TestTraceHandoverNamesTheRefusal: a handover after a tool breaker refused
// the carrier says so in the trace pane, beside the reason (the model
// escalated), as the report's trace does.
func TestTraceHandoverNamesTheRefusal(t *testing.T) {
	h := &event.HandoverState{Reason: event.StopEscalated, Refused: []string{"carrier"}, Told: "passed on"}
	got := strings.Join(handoverLines(h), "\n")
	if !strings.Contains(got, "refused by its breaker: carrier") {
		t.Errorf("the handover lines do not name the refused carrier:\n%s", got)
	}
	if got := strings.Join(handoverLines(&event.HandoverState{Reason: event.StopLoop}), "\n"); strings.Contains(got, "refused") {
		t.Errorf("a handover with no refusal speaks of one:\n%s", got)
	}
}
