package tui

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// ConversationsView is the chat workload's dashboard: the Conversations
// pane (one row per conversation: start, time, turns, tokens, outcome and
// a bar of its time like the Emails pane's), and on enter the selected
// conversation's trace (time, model, outcome per call). Every figure comes
// from scoring's chat fold; the view computes none.
type ConversationsView struct {
	st     Styles
	events []event.Event
	sum    scoring.ChatSummary
	rows   []scoring.ConversationRow
	axis   time.Duration // the bar scale: the slowest conversation
	w, h   int
	top    int // first row shown
	sel    int // selected row
	trace  *scoring.ChatTrace
	tOff   int // the trace's scroll offset
}

var _ tea.Model = (*ConversationsView)(nil)

// NewConversationsView builds the view of a chat run's events.
func NewConversationsView(st Styles, events []event.Event) *ConversationsView {
	f := scoring.NewChatFold(0)
	for _, e := range events {
		f.Add(e)
	}
	v := &ConversationsView{st: st, events: events, sum: f.Summary(), rows: f.Rows(), w: 100, h: 30}
	for _, r := range v.rows {
		v.axis = max(v.axis, r.Time)
	}
	return v
}

// traceMsg carries a conversation's trace, folded off the update loop.
type traceMsg struct{ t scoring.ChatTrace }

// Init implements tea.Model.
func (v *ConversationsView) Init() tea.Cmd { return nil }

// Update implements tea.Model: the keys move the selection, enter opens the
// trace (folded in a command, not here), esc closes it, q quits.
func (v *ConversationsView) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch m := msg.(type) {
	case tea.WindowSizeMsg:
		v.w, v.h = m.Width, m.Height
		v.clamp()
	case traceMsg:
		t := m.t
		v.trace, v.tOff = &t, 0
	case tea.KeyMsg:
		switch m.String() {
		case "q", "ctrl+c":
			return v, tea.Quit
		case "esc":
			if v.trace == nil {
				return v, tea.Quit
			}
			v.trace = nil
		case "up", "k":
			v.move(-1)
		case "down", "j":
			v.move(1)
		case "pgup":
			v.move(-v.visible())
		case "pgdown", " ":
			v.move(v.visible())
		case "home", "g":
			v.move(-len(v.rows))
		case "end", "G":
			v.move(len(v.rows))
		case "enter":
			if v.trace == nil && len(v.rows) > 0 {
				return v, v.loadTrace(v.rows[v.sel].ID)
			}
		}
	}
	return v, nil
}

// move moves the selection, or scrolls the open trace.
func (v *ConversationsView) move(d int) {
	if v.trace != nil {
		v.tOff = max(min(v.tOff+d, len(v.trace.Steps)-1), 0)
		return
	}
	v.sel += d
	v.clamp()
}

func (v *ConversationsView) clamp() {
	v.sel = max(min(v.sel, len(v.rows)-1), 0)
	n := v.visible()
	if v.sel < v.top {
		v.top = v.sel
	}
	if v.sel >= v.top+n {
		v.top = v.sel - n + 1
	}
	v.top = max(v.top, 0)
}

// visible is how many rows the pane shows.
func (v *ConversationsView) visible() int { return max(v.h-5, 1) }

// loadTrace folds the events for one conversation's trace.
func (v *ConversationsView) loadTrace(id int) tea.Cmd {
	events := v.events
	return func() tea.Msg {
		f := scoring.NewChatFold(id)
		for _, e := range events {
			f.Add(e)
		}
		t, _ := f.TraceOf()
		return traceMsg{t}
	}
}

// View implements tea.Model.
func (v *ConversationsView) View() string {
	if v.trace != nil {
		return strings.Join(box(v.st, fmt.Sprintf("Conversation %d", v.trace.Conversation.ID), true, v.w, v.h-1,
			traceLines(v.st, *v.trace, v.tOff)), "\n") + "\n" + v.st.Dim.Render(" ↑/↓ scroll · esc back · q quit")
	}
	title := fmt.Sprintf("Conversations · %s · %s · %d answered, %d handed over, %d silent", v.sum.Policy, v.sum.Incident,
		v.sum.Answered, v.sum.HandedOver, v.sum.Silent)
	return strings.Join(box(v.st, title, true, v.w, v.h-1,
		conversationLines(v.st, v.rows, v.top, v.sel, v.w-2, v.visible(), v.axis)), "\n") +
		"\n" + v.st.Dim.Render(" ↑/↓ select · enter trace · q quit")
}

// outcomeWords is a row's outcome in words, and the style and glyph of its
// bar: colour is never the only cue.
func outcomeWords(st Styles, r scoring.ConversationRow) (string, rune, func(...string) string) {
	switch {
	case r.Running:
		return "running", '░', st.Waiting.Render
	case r.Ending == event.EndingAnswered && len(r.Without) > 0:
		return "answered without " + strings.Join(r.Without, ", "), '▓', st.Backup.Render
	case r.Ending == event.EndingAnswered:
		return "answered", '█', st.Primary.Render
	case r.Ending == event.EndingHandedOver:
		return "handed over: " + r.Reason, '▒', st.Canned.Render
	}
	return "silent: " + r.Reason, '×', st.Error.Render
}

// conversationLines renders the rows from top, n of them, w cells wide;
// the bar is the conversation's time on an axis of the slowest one.
func conversationLines(st Styles, rows []scoring.ConversationRow, top, sel, w, n int, axis time.Duration) []string {
	head := fmt.Sprintf("  %5s %8s %8s %5s %7s  %-34s", "#", "start", "time", "turns", "tokens", "outcome")
	out := []string{st.Dim.Render(fit(head, w))}
	barW := max(w-ansiLen(head)-1, 0)
	for i := top; i < min(top+n, len(rows)); i++ {
		r := rows[i]
		words, glyph, paint := outcomeWords(st, r)
		mark := " "
		if i == sel {
			mark = st.Selected.Render("▸")
		}
		line := fmt.Sprintf("%s %5d %8s %8s %5d %7d  %-34s", mark, r.ID, format.Dur(r.Start), format.Dur(r.Time), r.Turns, r.Tokens, fit(words, 34))
		bar := 0
		if axis > 0 {
			bar = int(float64(barW) * float64(r.Time) / float64(axis))
		}
		out = append(out, fit(line+" "+paint(strings.Repeat(string(glyph), bar)), w))
	}
	return out
}

// traceLines renders a trace from off: the write-up's conversation 350
// layout, a line per model attempt and tool call.
func traceLines(st Styles, t scoring.ChatTrace, off int) []string {
	c := t.Conversation
	words, _, _ := outcomeWords(st, c)
	out := []string{
		fmt.Sprintf("started at %s, %s after %s, %d turns, %d tokens", format.Dur(c.Start), words, format.Dur(c.Time), c.Turns, c.Tokens),
		st.Dim.Render(fmt.Sprintf("%8s  %-5s %-28s %s", "time", "turn", "model or tool", "outcome")),
	}
	for _, s := range t.Steps[min(off, len(t.Steps)):] {
		who := s.Rung + " " + s.Model
		if s.Tool != "" {
			who = "tool " + s.Tool
		}
		if s.Rung == "" && s.Tool == "" {
			who = "end"
		}
		out = append(out, fmt.Sprintf("%8s  %-5d %-28s %s", format.Elapsed(s.At), s.Turn, who, s.Outcome))
	}
	return append(out, handoverLines(t.Handover)...)
}

// handoverLines say what a handover passed on: why, what was found, what
// was attempted, what the customer was told.
func handoverLines(h *event.HandoverState) []string {
	if h == nil {
		return nil
	}
	found := make([]string, 0, len(h.Found))
	for tool := range h.Found {
		found = append(found, tool)
	}
	sort.Strings(found)
	return []string{"", "handed over: " + h.Reason,
		"  found:     " + strings.Join(found, ", "),
		"  attempted: " + strings.Join(h.Attempted, " → "),
		"  told:      " + h.Told}
}

func ansiLen(s string) int { return len([]rune(s)) }

// ReplayChat shows a chat run's journal in the Conversations view until the
// user quits.
func ReplayChat(ctx context.Context, events []event.Event, opts Options) error {
	term := opts.Terminal()
	_, err := RunProgram(ctx, "conversations", NewConversationsView(NewStyles(term.Renderer), events), term, opts)
	return err
}
