package tui

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// ConversationsView is the chat workload's dashboard: a header of the run's
// chat figures, the Conversations pane (one row per conversation: start,
// time, turns, tokens, outcome and a bar of its time like the Emails
// pane's), and on enter the selected conversation's trace (time, model,
// outcome per call). It shows a live run as it goes (its log followed on a
// tick), a virtual run's recording paced by its offsets, or a journal all
// at once. Every figure comes from scoring's chat fold; the view computes
// none.
type ConversationsView struct {
	st   Styles
	feed feeder        // nil: every event was there from the start
	rp   *replayFeed   // non-nil when pacing a recording
	tick time.Duration // how often the feed is read
	// events are every event read so far: a trace is folded from them.
	events []event.Event
	fold   *scoring.ChatFold
	sum    scoring.ChatSummary
	rows   []scoring.ConversationRow
	axis   time.Duration // the bar scale: the slowest conversation
	now    time.Duration // the run's clock, as the feed last said
	done   bool          // the feed is read to its end
	early  bool          // q quit a live drill before its end (not ctrl+c)
	w, h   int
	top    int  // first row shown
	sel    int  // selected row
	follow bool // the selection follows the newest conversation
	// trace is the open trace; traceFold keeps it current as events
	// arrive; traceID is the conversation asked for (0: none).
	trace     *scoring.ChatTrace
	traceFold *scoring.ChatFold
	traceID   int
	tOff      int    // the trace's scroll offset
	showHelp  bool   // the key help is up (?)
	flash     string // a one-key message in the key line ("" for the keys)
}

var _ tea.Model = (*ConversationsView)(nil)

// NewConversationsView builds the view of a chat run's events, all shown
// at once (a journal's replay).
func NewConversationsView(st Styles, events []event.Event) *ConversationsView {
	v := newConversations(st, nil, 0)
	v.add(events)
	v.done = true
	return v
}

// newConversations is an empty view reading feed every tick (150 ms if
// zero); the selection follows the newest conversation until a key moves
// it.
func newConversations(st Styles, feed feeder, tick time.Duration) *ConversationsView {
	if tick <= 0 {
		tick = 150 * time.Millisecond
	}
	v := &ConversationsView{st: st, feed: feed, tick: tick, fold: scoring.NewChatFold(0), w: 100, h: 30, follow: feed != nil}
	v.rp, _ = feed.(*replayFeed)
	return v
}

// add folds newly read events and refreshes what the view shows.
func (v *ConversationsView) add(evs []event.Event) {
	if len(evs) == 0 {
		return
	}
	for _, e := range evs {
		v.fold.Add(e)
		if v.traceFold != nil {
			v.traceFold.Add(e)
		}
	}
	v.events = append(v.events, evs...)
	v.sum, v.rows = v.fold.Summary(), v.fold.Rows()
	v.axis = 0
	for _, r := range v.rows {
		v.axis = max(v.axis, r.Time)
	}
	if v.traceFold != nil {
		t, _ := v.traceFold.TraceOf()
		v.trace = &t
	}
	if v.follow {
		v.sel = len(v.rows) - 1
	}
	v.clamp()
}

// traceMsg carries a fold of one conversation's trace over the first n
// events, folded off the update loop; the view adds the rest.
type traceMsg struct {
	id   int
	fold *scoring.ChatFold
	n    int
}

// Init implements tea.Model: a view with a feed starts reading it.
func (v *ConversationsView) Init() tea.Cmd {
	if v.feed == nil {
		return nil
	}
	return v.tickCmd()
}

func (v *ConversationsView) tickCmd() tea.Cmd {
	return tea.Tick(v.tick, func(t time.Time) tea.Msg { return tickMsg{T: t} })
}

// Update implements tea.Model: ticks read the feed, the keys move the
// selection, enter opens the trace (folded in a command, not here), esc
// closes it (or the help), ? shows the key help, q and ctrl+c quit; space,
// + and - pause and pace a recording.
func (v *ConversationsView) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch m := msg.(type) {
	case tea.WindowSizeMsg:
		v.w, v.h = m.Width, m.Height
		v.clamp()
	case tickMsg:
		if v.feed == nil || v.done {
			return v, nil
		}
		evs, now, done := v.feed.poll(m.T)
		v.now, v.done = now, done
		v.add(evs)
		if v.done {
			return v, nil
		}
		return v, v.tickCmd()
	case traceMsg:
		if m.id != v.traceID {
			return v, nil // closed, or another was asked for since
		}
		for _, e := range v.events[m.n:] {
			m.fold.Add(e)
		}
		v.traceFold, v.tOff = m.fold, 0
		t, _ := m.fold.TraceOf()
		v.trace = &t
	case tea.KeyMsg:
		return v, v.key(m.String())
	}
	return v, nil
}

// key handles one key. The help overlay takes every key but quit; esc
// closes the help or the trace and never quits.
func (v *ConversationsView) key(k string) tea.Cmd {
	v.flash = ""
	if v.showHelp && k != "q" && k != "ctrl+c" {
		if k == "?" || k == "esc" {
			v.showHelp = false
		}
		return nil
	}
	switch k {
	case "q", "ctrl+c":
		// q on a drill still running ends it early (a normal end, judged
		// on what ran); ctrl+c interrupts it.
		v.early = k == "q" && v.feed != nil && !v.done
		return tea.Quit
	case "?":
		v.showHelp = true
	case "esc":
		if v.traceID == 0 {
			v.flash = "esc closes a trace or the help; q quits"
			return nil
		}
		v.trace, v.traceFold, v.traceID = nil, nil, 0
	case "up", "k":
		v.move(-1)
	case "down", "j":
		v.move(1)
	case "pgup":
		v.move(-v.visible())
	case "pgdown":
		v.move(v.visible())
	case "home", "g":
		v.move(-len(v.rows))
	case "end", "G":
		v.move(len(v.rows))
	case " ":
		if v.rp != nil {
			v.rp.paused = !v.rp.paused
		} else {
			v.move(v.visible())
		}
	case "+", "=":
		if v.rp != nil {
			v.rp.setSpeed(v.rp.speed * 2)
		}
	case "-":
		if v.rp != nil {
			v.rp.setSpeed(v.rp.speed / 2)
		}
	case "enter":
		if v.traceID == 0 && len(v.rows) > 0 {
			v.traceID = v.rows[v.sel].ID
			return v.loadTrace(v.traceID)
		}
	}
	return nil
}

// move moves the selection, or scrolls the open trace. Moving to the last
// row follows the newest conversation again.
func (v *ConversationsView) move(d int) {
	if v.trace != nil {
		v.tOff = max(min(v.tOff+d, len(v.trace.Steps)-1), 0)
		return
	}
	v.sel += d
	v.clamp()
	v.follow = v.feed != nil && v.sel == len(v.rows)-1
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
	v.top = max(min(v.top, len(v.rows)-n), 0)
}

// visible is how many rows the pane shows: the height less the header,
// the pane's borders and column heads, and the key line.
func (v *ConversationsView) visible() int { return max(v.h-len(v.header())-4, 1) }

// loadTrace folds the events read so far for one conversation's trace.
func (v *ConversationsView) loadTrace(id int) tea.Cmd {
	events := v.events
	return func() tea.Msg {
		f := scoring.NewChatFold(id)
		for _, e := range events {
			f.Add(e)
		}
		return traceMsg{id: id, fold: f, n: len(events)}
	}
}

// header is the run's name and clock, and its chat figures, wrapped to
// the view's width.
func (v *ConversationsView) header() []string {
	s := v.sum
	title := []string{"drill · chat", format.Text(s.Policy), incidentWords(s), fmt.Sprintf("seed %d", s.Seed), s.Clock + " clock"}
	switch {
	case v.rp != nil:
		title = append(title, v.rp.status())
	case v.feed != nil && !v.done:
		title = append(title, "running "+format.Dur(v.now))
	case s.Status != "":
		title = append(title, s.Status)
	}
	out := wrapSegments(title, " · ", v.w)
	out[0] = v.st.Bold.Render(out[0])
	out = append(out, wrapSegments(chatFigures(v.st, s, v.fold.Planned()), " · ", v.w)...)
	if segs := stopSegments(v.st, s); len(segs) > 0 {
		out = append(out, wrapSegments(segs, " · ", v.w)...)
	}
	return out
}

// chatFigures are the chat header's figures, from the fold's summary;
// planned is how many conversations the run starts (0: unknown).
func chatFigures(st Styles, s scoring.ChatSummary, planned int) []string {
	b := st.Bold.Render
	started := fmt.Sprintf("%s conversations", b(strconv.Itoa(s.Conversations)))
	if planned > 0 {
		started = fmt.Sprintf("%s of %s conversations", b(strconv.Itoa(s.Conversations)), b(strconv.Itoa(planned)))
	}
	segs := []string{
		started,
		fmt.Sprintf("answered %s", b(strconv.Itoa(s.Answered))),
		fmt.Sprintf("handed over %s", b(strconv.Itoa(s.HandedOver))),
		fmt.Sprintf("silent %s", b(strconv.Itoa(s.Silent))),
	}
	if s.CutOff > 0 {
		// Still going on when the run ended: no ending of their own.
		segs = append(segs, fmt.Sprintf("cut off %s", b(strconv.Itoa(s.CutOff))))
	}
	segs = append(segs,
		fmt.Sprintf("turn limit %s", b(strconv.Itoa(s.TurnLimit))),
		fmt.Sprintf("p99 %s", b(format.Secs(s.TimeP99S))),
		fmt.Sprintf("over 2 min %s", b(strconv.Itoa(s.Over120s))),
		fmt.Sprintf("tokens %s", b(format.Millions(float64(s.TokensBilled)))),
	)
	names := slices.Sorted(maps.Keys(s.BreakerOpens))
	if len(names) == 0 {
		return append(segs, "breaker opens: none")
	}
	opens := make([]string, len(names))
	for i, n := range names {
		opens[i] = fmt.Sprintf("%s %s", n, b(strconv.Itoa(s.BreakerOpens[n])))
	}
	return append(segs, "breaker opens: "+strings.Join(opens, ", "))
}

// View implements tea.Model: exactly h lines of at most w cells.
func (v *ConversationsView) View() string {
	head := v.header()
	paneH := max(v.h-len(head)-1, 2)
	var pane []string
	keys := " ↑/↓ select · enter trace · q quit"
	if v.trace != nil {
		pane = box(v.st, fmt.Sprintf("Conversation %d", v.trace.Conversation.ID), true, v.w, paneH, traceLines(v.st, *v.trace, v.tOff))
		keys = " ↑/↓ scroll · esc back · q quit"
	} else {
		pane = box(v.st, fmt.Sprintf("Conversations (%d)", len(v.rows)), true, v.w, paneH,
			conversationLines(v.st, v.rows, v.top, v.sel, v.w-2, v.visible(), v.axis, v.now, incidentOf(v.sum)))
	}
	if v.rp != nil {
		keys += " · space pause · +/- speed"
	}
	keys += " · ? help"
	if v.feed != nil && !v.done && v.rp == nil {
		keys = strings.Replace(keys, "q quit", "q quit (stops the drill)", 1)
	}
	if v.showHelp {
		pane = overlay(pane, v.helpBox(paneH), v.w)
	}
	foot := v.st.Dim.Render(fit(keys, v.w))
	if v.flash != "" {
		foot = v.st.Alert.Render(fit(" "+v.flash, v.w))
	}
	lines := append(head, pane...)
	lines = append(lines, foot)
	if len(lines) > v.h {
		lines = lines[:max(v.h, 0)] // a tiny terminal keeps the figures
	}
	for i, l := range lines {
		lines[i] = fit(l, v.w)
	}
	return strings.Join(lines, "\n")
}

// helpBox is the key help over the pane, as the email dashboard's: every
// key the view answers to, h lines at most.
func (v *ConversationsView) helpBox(h int) []string {
	rows := []string{
		"↑/k ↓/j    select a conversation (scroll a trace)",
		"pgup pgdn  a page up / down",
		"home/g     the first conversation",
		"end/G      the newest (and follow it)",
		"enter      the selected conversation's trace",
		"esc        close the trace or this help",
		incidentGlyph + "          started in the incident window",
	}
	if v.rp != nil {
		rows = append(rows, "space      pause / play", "+ -        faster / slower")
	}
	quit := "q ctrl+c   quit"
	if v.feed != nil && !v.done && v.rp == nil {
		quit += " (stops the drill)"
	}
	rows = append(rows, "?          this help", quit)
	bw := min(v.w-4, 60)
	bh := min(len(rows)+2, h)
	if len(rows) > bh-2 {
		rows = rows[:max(bh-2, 0)]
	}
	return box(v.st, "Help (? or esc closes)", true, bw, bh, rows)
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
	case r.Ending == event.EndingCutOff:
		return "cut off: " + r.Reason, '░', st.Dim.Render
	}
	return "silent: " + r.Reason, '×', st.Error.Render
}

// conversationLines renders the rows from top, n of them, w cells wide;
// the bar is the conversation's time on an axis of the slowest one (at
// least one cell for any time). A conversation still running shows the
// time since its start on the run's clock now (0: unknown), its bar capped
// at the axis, as the Emails pane shows a waiting email. The outcome
// column narrows on a narrow terminal so the bar keeps some room.
func conversationLines(st Styles, rows []scoring.ConversationRow, top, sel, w, n int, axis, now time.Duration, incident window) []string {
	ow := min(max(w-41-12, 12), 34)
	head := fmt.Sprintf("  %5s %8s %8s %5s %7s  %-*s", "#", "start", "time", "turns", "tokens", ow, "outcome")
	barW := max(w-cellWidth(head)-1, 0)
	out := []string{st.Dim.Render(fit(head+" "+barAxis(axis, barW), w))}
	for i := top; i < min(top+n, len(rows)); i++ {
		r := rows[i]
		words, glyph, paint := outcomeWords(st, r)
		mark := " "
		if i == sel {
			mark = st.Selected.Render("▸")
		}
		in := " "
		if incident.holds(r.Start) {
			in = st.Alert.Render(incidentGlyph)
		}
		took := r.TimeAt(now)
		line := fmt.Sprintf("%s%s%5d %8s %8s %5d %7d  %-*s", mark, in, r.ID, format.Dur(r.Start), format.Dur(took), r.Turns, r.Tokens, ow, fit(words, ow))
		bar := 0
		if axis > 0 && took > 0 {
			// Rounded, and at least a cell: a short conversation shows too.
			bar = min(max(int(float64(barW)*float64(took)/float64(axis)+0.5), 1), barW)
		}
		out = append(out, fit(line+" "+paint(strings.Repeat(string(glyph), bar)), w))
	}
	return out
}

// barAxis is the time axis over the bars, barW cells: 0 at the left, the
// axis (the slowest conversation) at the right, and its middle between
// when there is room; "" when the bars have no room or no time yet.
func barAxis(axis time.Duration, barW int) string {
	if axis <= 0 {
		return ""
	}
	left, mid, right := "0 s", format.Dur(axis/2), format.Dur(axis)
	switch {
	case barW >= len(left)+len(mid)+len(right)+4:
		gap := barW - len(left) - len(mid) - len(right)
		return left + strings.Repeat(" ", gap/2) + mid + strings.Repeat(" ", gap-gap/2) + right
	case barW >= len(left)+len(right)+1:
		return left + strings.Repeat(" ", barW-len(left)-len(right)) + right
	}
	return ""
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
// was attempted, the dependencies a breaker refused, what the customer was
// told.
func handoverLines(h *event.HandoverState) []string {
	if h == nil {
		return nil
	}
	out := []string{"", "handed over: " + h.Reason,
		"  found:     " + strings.Join(slices.Sorted(maps.Keys(h.Found)), ", "),
		"  attempted: " + strings.Join(h.Attempted, " → ")}
	if len(h.Refused) > 0 {
		out = append(out, "  refused by its breaker: "+strings.Join(h.Refused, ", "))
	}
	return append(out, "  told:      "+h.Told)
}

// ReplayChat shows a chat run's journal in the Conversations view, every
// conversation at once, until the user quits.
func ReplayChat(ctx context.Context, events []event.Event, opts Options) error {
	term := opts.Terminal()
	_, err := RunProgram(ctx, "conversations", NewConversationsView(NewStyles(term.Renderer), events), term, opts)
	return err
}

// PlayChat shows a recorded chat run in the Conversations view paced by
// its offsets at opts.Speed, as it went live (drill run --workload chat
// --clock virtual on a terminal); space pauses, + and - change the speed.
func PlayChat(ctx context.Context, events []event.Event, opts ReplayOptions) error {
	term := opts.Terminal()
	v := newConversations(NewStyles(term.Renderer), newReplayFeed(events, opts.Speed), opts.Tick)
	_, err := RunProgram(ctx, "conversations", v, term, opts.Options)
	return err
}

// LiveChat shows a live chat drill in the Conversations view, following
// its log with a cursor on a tick (it never blocks the drill), until the
// user quits; the view stays on the final figures once the drill ends.
// The caller stops the drill if it is still going when LiveChat returns;
// early is true when q (not ctrl+c) quit before the drill ended: a normal
// end, judged on what ran.
func LiveChat(ctx context.Context, log *event.Log, opts Options) (early bool, err error) {
	if log == nil {
		return false, errors.New("conversations: no event log")
	}
	cur := log.Cursor()
	defer cur.Close()
	term := opts.Terminal()
	v := newConversations(NewStyles(term.Renderer), &liveFeed{log: log, cur: cur}, opts.Tick)
	how, err := RunProgram(ctx, "conversations", v, term, opts)
	return err == nil && how == Quit && v.early, err
}
