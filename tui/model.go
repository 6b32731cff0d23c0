package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// Panes that take focus, in tab order.
const (
	paneEmails = iota
	paneBreaker
	paneCalls
	paneQuality
	paneCount
)

var paneTitles = [paneCount]string{"Emails", "Breaker", "Calls", "Quality"}

// tickMsg asks the model to read new events; T is the wall clock.
type tickMsg struct{ T time.Time }

// feeder hands the model the events due at wall-clock time t, the run's
// clock at t, and whether the run is over and fully read.
type feeder interface {
	poll(t time.Time) (evs []event.Event, now time.Duration, done bool)
}

// Compile-time checks: the feeds are feeders, the dashboard a tea.Model.
var (
	_ feeder    = (*liveFeed)(nil)
	_ feeder    = (*replayFeed)(nil)
	_ tea.Model = (*Model)(nil)
)

// liveFeed follows a live run's log with a cursor; it never blocks.
type liveFeed struct {
	log *event.Log
	cur *event.Cursor
}

func (f *liveFeed) poll(t time.Time) ([]event.Event, time.Duration, bool) {
	closed := f.log.Closed()
	evs := f.cur.Poll()
	return evs, t.Sub(f.log.Start()), closed
}

// Model is the dashboard: a reader of a run's events that owns no drill
// logic. Update and View need no terminal; the clock comes in tick messages.
type Model struct {
	st    Styles
	s     *state
	hyps  []scoring.Expr
	feed  feeder
	ctl   Controls
	rp    *replayFeed // non-nil when replaying
	tick  time.Duration
	keys  keyMap
	width int
	hgt   int

	now   time.Duration
	done  bool
	focus int

	// The panes: each owns its place, size and view state; layout places
	// them, refresh fills them in Update, View only draws them.
	header  headerPane
	ep      *emailsPane
	breaker breakerPane
	calls   callsPane
	quality qualityPane
	detail  detailPane
	summary summaryPane
	foot    []string   // the footer's lines
	wide    bool       // Emails left, the other panes right (else stacked)
	compact bool       // narrow and short: Breaker and Calls under Emails
	bodyY   int        // first line of the panes, under the header
	bodyH   int        // lines the panes take
	laid    layoutKey  // what the current layout was computed for
	drawn   drawnState // what the panes' content was last refreshed for

	inflight inflightPane   // the in-flight gauge (inflight.go)
	base     BaselineSource // the drill's baseline (baseline.go); nil without one

	choosing bool // waiting for the outage kind after `o`
	showHelp bool // the help overlay is up
	prompt   int  // promptNone, promptFilter or promptJump
	input    string
	flash    string
	quitting bool
	// early: q stopped the drill before its end (a normal end, judged on
	// what ran); ctrl+c interrupts it instead.
	early bool
}

// Prompts the footer can hold.
const (
	promptNone = iota
	promptFilter
	promptJump
)

// rect is a pane's place on the screen, in cells.
type rect struct{ x, y, w, h int }

func (r rect) has(x, y int) bool { return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h }

// panel is pane p's box (paneEmails … paneQuality).
func (m *Model) panel(p int) *panel {
	switch p {
	case paneEmails:
		return &m.ep.panel
	case paneBreaker:
		return &m.breaker.panel
	case paneCalls:
		return &m.calls.panel
	}
	return &m.quality.panel
}

// rects are where the layout put each pane, for the mouse.
func (m *Model) rects() [paneCount]rect {
	var rs [paneCount]rect
	for p := range rs {
		rs[p] = m.panel(p).rect
	}
	return rs
}

// Smallest terminal the dashboard draws in.
const (
	minWidth  = 60
	minHeight = 18
)

func newModel(st Styles, feed feeder, ctl Controls, tick time.Duration, hyps []scoring.Expr) *Model {
	if tick <= 0 {
		tick = 150 * time.Millisecond
	}
	_, replay := feed.(*replayFeed)
	m := &Model{
		st:   st,
		s:    newState(hyps),
		hyps: hyps,
		feed: feed,
		ctl:  ctl,
		tick: tick,
		keys: newKeyMap(!replay, outageKinds(ctl)),
		ep:   newEmailsPane(),
	}
	m.breaker.title = paneTitles[paneBreaker]
	m.calls.title = paneTitles[paneCalls]
	m.quality.title = paneTitles[paneQuality]
	if rp, ok := feed.(*replayFeed); ok {
		m.rp = rp
	}
	return m
}

func (m *Model) tickCmd() tea.Cmd {
	return tea.Tick(m.tick, func(t time.Time) tea.Msg { return tickMsg{T: t} })
}

// Init starts the polling tick.
func (m *Model) Init() tea.Cmd { return m.tickCmd() }

// Update handles keys, the mouse, resizes and ticks (which fold new
// events), then refreshes the panes: View only draws what they hold.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.hgt = msg.Width, msg.Height
	case tickMsg:
		m.ingest(msg.T)
		if !m.quitting {
			cmd = m.tickCmd()
		}
		if m.drawn == (drawnState{s: m.s, gen: m.s.gen, now: m.now, done: m.done}) {
			return m, cmd // nothing new to show (a paused replay)
		}
	case tea.KeyMsg:
		cmd = m.key(msg)
	case tea.MouseMsg:
		m.mouse(msg)
	default:
		return m, nil
	}
	m.refresh()
	return m, cmd
}

// mouse scrolls the pane under the pointer with the wheel; a left click
// focuses a pane, and on an Emails row selects that email.
func (m *Model) mouse(msg tea.MouseMsg) {
	if m.showHelp || m.detail.id != 0 && msg.Button != tea.MouseButtonWheelUp && msg.Button != tea.MouseButtonWheelDown {
		return
	}
	p := -1
	for i, r := range m.rects() {
		if r.has(msg.X, msg.Y) {
			p = i
		}
	}
	if p < 0 && m.detail.id == 0 {
		return
	}
	switch msg.Button {
	case tea.MouseButtonWheelUp, tea.MouseButtonWheelDown:
		d := 3
		if msg.Button == tea.MouseButtonWheelUp {
			d = -3
		}
		if m.detail.id == 0 {
			m.focus = p
		}
		m.scroll(d)
	case tea.MouseButtonLeft:
		if msg.Action != tea.MouseActionPress {
			return
		}
		m.focus = p
		if p != paneEmails {
			return
		}
		// Rows start under the border and the column header.
		row := msg.Y - m.ep.y - 2
		if m.ep.showBase {
			row /= 2 // each email's row has the baseline's under it
		}
		if row < 0 || row >= m.ep.vis {
			return
		}
		if i := m.ep.top + row; i < m.ep.count(m.s) {
			m.ep.sel, m.ep.follow = i, false
		}
	}
}

// ingest folds the events due at t.
func (m *Model) ingest(t time.Time) {
	if m.rp != nil && m.rp.reset {
		m.restart()
	}
	evs, now, done := m.feed.poll(t)
	m.s.addAll(evs)
	m.done = done
	if done || m.s.ended() && m.rp == nil {
		now = m.s.last()
	}
	if now < m.s.last() {
		now = m.s.last()
	}
	m.now = now
	m.s.baseline = baselineAt(m.base, m.s, now)
}

// restart drops everything folded so far; a replay seeking backwards refolds
// from the first event.
func (m *Model) restart() {
	m.s = newState(m.hyps)
	r, base := m.ep.rect, m.ep.showBase
	m.ep = newEmailsPane()
	m.ep.showBase = base
	m.ep.SetSize(r)
	m.rp.idx = 0
	m.rp.reset = false
}

func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	m.flash = ""
	if m.prompt != promptNone && msg.Type != tea.KeyCtrlC {
		// A prompt takes every key (q included) but ctrl+c.
		m.promptKey(msg)
		return nil
	}
	if key.Matches(msg, k.Quit) {
		if m.ctl != nil && !m.done {
			m.ctl.Stop()
			m.early = msg.Type != tea.KeyCtrlC // q ends the drill; ctrl+c interrupts it
		}
		m.quitting = true
		return tea.Quit
	}
	switch {
	case m.showHelp:
		// The overlay takes every key but quit; ? or esc closes it.
		if key.Matches(msg, k.Help, k.Close) {
			m.showHelp = false
		}
	case m.choosing:
		if kind, ok := m.keys.kindForKey(msg.String()); ok {
			m.startOutage(kind)
		} else if key.Matches(msg, k.Close) {
			m.choosing = false
		}
	case m.viewKey(msg), m.controlKey(msg), m.replayKey(msg):
		// Tried in turn: the first that knows the key handled it.
	default:
		m.moveKey(msg)
	}
	return nil
}

// viewKey handles the keys that change what the dashboard shows: help,
// close, filter, jump and the baseline. It reports whether msg was one.
func (m *Model) viewKey(msg tea.KeyMsg) bool {
	k := m.keys
	switch {
	case key.Matches(msg, k.Help):
		m.showHelp = true
	case key.Matches(msg, k.Close):
		if m.detail.id != 0 {
			m.detail.close()
		} else if m.ep.filter != "" {
			m.ep.setFilter("")
		}
	case key.Matches(msg, k.Filter):
		m.prompt, m.input = promptFilter, m.ep.filter
	case key.Matches(msg, k.Jump):
		m.prompt, m.input = promptJump, ""
	case key.Matches(msg, k.Base):
		if why := m.s.baseline.toggleRefusal(); why != "" {
			m.flash = why
			break
		}
		m.ep.toggleBaseline()
	default:
		return false
	}
	return true
}

// controlKey handles the keys that steer a live drill: pause and the
// outage. It reports whether msg was one.
func (m *Model) controlKey(msg tea.KeyMsg) bool {
	k := m.keys
	switch {
	case m.ctl == nil:
		return false
	case key.Matches(msg, k.Pause):
		if m.done {
			break
		}
		if m.ctl.Paused() {
			m.ctl.Resume()
		} else {
			m.ctl.Pause()
		}
	case key.Matches(msg, k.Outage):
		if m.done {
			break
		}
		if m.s.outageActive() {
			m.ctl.EndOutage()
		} else {
			m.choosing = true
		}
	default:
		return false
	}
	return true
}

// replayKey handles the keys of a replay: play, seek and speed. It reports
// whether msg was one.
func (m *Model) replayKey(msg tea.KeyMsg) bool {
	k := m.keys
	switch {
	case m.rp == nil:
		return false
	case key.Matches(msg, k.Play):
		m.rp.paused = !m.rp.paused
	case key.Matches(msg, k.Rewind):
		m.rp.seek(-5 * time.Second)
		m.ingest(m.rp.lastT)
	case key.Matches(msg, k.Skip):
		m.rp.seek(5 * time.Second)
		m.ingest(m.rp.lastT)
	case key.Matches(msg, k.Faster):
		m.rp.setSpeed(m.rp.speed * 2)
	case key.Matches(msg, k.Slower):
		m.rp.setSpeed(m.rp.speed / 2)
	default:
		return false
	}
	return true
}

// moveKey handles the keys that move around: focus, scrolling, following
// the newest email and opening one.
func (m *Model) moveKey(msg tea.KeyMsg) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Focus):
		m.focus = m.nextDrawn(1)
	case key.Matches(msg, k.Back):
		m.focus = m.nextDrawn(-1)
	case key.Matches(msg, k.Up):
		m.scroll(-1)
	case key.Matches(msg, k.Down):
		m.scroll(1)
	case key.Matches(msg, k.PgUp):
		m.scroll(-m.page())
	case key.Matches(msg, k.PgDown):
		m.scroll(m.page())
	case key.Matches(msg, k.Follow):
		if m.focus == paneEmails && m.detail.id == 0 {
			m.ep.follow = true
		}
	case key.Matches(msg, k.Open):
		if m.focus == paneEmails && m.detail.id == 0 && m.ep.count(m.s) > 0 {
			// The row highlighted on screen, even if newer emails came in
			// since it was drawn.
			if id := m.ep.shown; id != 0 {
				m.detail.open(id)
				break
			}
			m.ep.sync(m.s)
			m.detail.open(m.ep.at(m.s, m.ep.sel).ID)
		}
	}
}

// promptKey edits the footer's prompt: enter applies it, esc cancels.
func (m *Model) promptKey(msg tea.KeyMsg) {
	switch msg.Type {
	case tea.KeyEsc:
		m.prompt = promptNone
	case tea.KeyEnter:
		p, in := m.prompt, strings.TrimSpace(m.input)
		m.prompt = promptNone
		if p == promptFilter {
			if in != "" && !validFilter(in) {
				names := filterNames(len(m.s.fold.Info.Routes) > 0)
				m.flash = fmt.Sprintf("filter %q: write %s or %s", in, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
				return
			}
			m.ep.setFilter(in)
			m.focus = paneEmails
			m.detail.close()
			return
		}
		m.jump(in)
	case tea.KeyBackspace:
		if r := []rune(m.input); len(r) > 0 {
			m.input = string(r[:len(r)-1])
		}
	case tea.KeyRunes, tea.KeySpace:
		if len(m.input) < 40 {
			m.input += string(msg.Runes)
		}
	}
}

// jump selects email id in the Emails pane, dropping a filter that hides it.
func (m *Model) jump(in string) {
	id, err := strconv.Atoi(strings.TrimPrefix(in, "#"))
	if err != nil {
		m.flash = fmt.Sprintf("go to %q: write an email number", in)
		return
	}
	if m.s.row(id) == nil {
		m.flash = fmt.Sprintf("email #%d has not been sent", id)
		return
	}
	if i := m.ep.find(m.s, id); i >= 0 {
		m.ep.selectRow(i)
	} else {
		m.ep.setFilter("")
		m.ep.selectRow(m.ep.find(m.s, id))
	}
	m.focus = paneEmails
	m.detail.close()
}

func (m *Model) startOutage(kind string) {
	m.choosing = false
	if err := m.ctl.StartOutage(kind); err != nil {
		m.flash = fmt.Sprintf("outage %s: %v", kind, err)
	}
}

func (m *Model) page() int {
	if m.focus == paneEmails && m.ep.vis > 1 {
		return m.ep.vis - 1
	}
	return max(m.hgt/4, 1)
}

func (m *Model) scroll(d int) {
	switch {
	case m.detail.id != 0:
		m.detail.scrollBy(d)
	case m.focus == paneEmails:
		n := m.ep.count(m.s)
		if m.ep.follow && d < 0 {
			m.ep.sel = n - 1
		}
		m.ep.scroll(d, n)
	default:
		m.panel(m.focus).scrollBy(d)
	}
}

// tooSmall is the frame for a terminal under the minimum size.
func tooSmall(st Styles, w, h int) []string {
	msg := []string{
		st.Alert.Render(fmt.Sprintf("terminal too small (need %d×%d)", minWidth, minHeight)),
		fmt.Sprintf("now %d×%d · q quits", w, h),
	}
	out := make([]string, h)
	top := max((h-len(msg))/2, 0)
	for i := range out {
		line := ""
		if j := i - top; j >= 0 && j < len(msg) {
			line = msg[j]
			line = strings.Repeat(" ", max((w-cellWidth(line))/2, 0)) + line
		}
		out[i] = fit(line, w)
	}
	return out
}

// footer is the footer: a prompt, the outage menu, a message, or the
// keys, always ending in "? help".
func (m *Model) footer(w int) []string {
	st := m.st
	switch {
	case m.prompt == promptFilter:
		// The hint that fits whole, never a cut one.
		line := st.Bold.Render("/ filter: ") + m.input + "▏"
		names := filterNames(len(m.s.fold.Info.Routes) > 0)
		hint := pick(w-cellWidth(line), "  "+strings.Join(names, " · ")+" · enter · esc",
			"  "+strings.Join(names, " ")+" · enter · esc", "  "+strings.Join(names[:len(names)-1], " ")+" or #", "  enter · esc", "")
		return []string{fit(line+st.Dim.Render(hint), w)}
	case m.prompt == promptJump:
		line := st.Bold.Render("go to email #") + m.input + "▏"
		return []string{fit(line+st.Dim.Render(pick(w-cellWidth(line), "  enter · esc", "")), w)}
	case m.choosing:
		segs := m.keys.kindMenu()
		segs[0] = st.Alert.Render("outage kind:") + " " + segs[0]
		lines := wrapSegments(segs, " · ", w)
		for i := range lines {
			lines[i] = fit(lines[i], w)
		}
		return lines
	case m.flash != "":
		lines := wrapSegments([]string{m.flash}, "", w)
		for i, l := range lines {
			lines[i] = fit(st.Alert.Render(l), w)
		}
		return lines
	}
	tail := st.Bold.Render("?") + st.Dim.Render(" help")
	room := w - cellWidth(tail) - 3
	var segs []string
	used := 0
	for _, b := range m.keys.ShortHelp() {
		seg := st.Bold.Render(b.Help().Key) + " " + st.Dim.Render(b.Help().Desc)
		if used+cellWidth(seg)+3 > room {
			break
		}
		segs = append(segs, seg)
		used += cellWidth(seg) + 3
	}
	segs = append(segs, tail)
	return []string{fit(strings.Join(segs, st.Dim.Render(" · ")), w)}
}

// helpBox is the help overlay: every key, in one or two columns, then
// notes spanning the box, centred in w×h.
func (m *Model) helpBox(w, h int) []string {
	var rows []string
	for gi, group := range m.keys.FullHelp() {
		if gi > 0 {
			rows = append(rows, "")
		}
		for _, b := range group {
			rows = append(rows, fmt.Sprintf("%-10s %s", b.Help().Key, b.Help().Desc))
		}
	}
	notes := []string{
		"/ takes: errors, backup, canned, primary, wrong, waiting, or #id",
		"mouse: the wheel scrolls, a click selects",
	}
	bw := min(w-4, 72)
	colW := 0
	for _, r := range rows {
		colW = max(colW, cellWidth(r))
	}
	var inner []string
	if len(rows)+len(notes)+2 > h && 2*colW+2 <= bw-2 {
		half := (len(rows) + 1) / 2
		for i := 0; i < half; i++ {
			right := ""
			if i+half < len(rows) {
				right = rows[i+half]
			}
			inner = append(inner, fit(rows[i], colW+2)+right)
		}
	} else {
		inner = rows
	}
	inner = append(append(inner, ""), notes...)
	bh := min(len(inner)+2, h)
	if len(inner) > bh-2 {
		inner = append(inner[:max(bh-3, 0)], m.st.Dim.Render("…more: a larger terminal shows every key"))
	}
	return box(m.st, "Help (? or esc closes)", true, bw, bh, inner)
}

// overlay draws box centred over base (lines of w cells), keeping the base
// visible around it.
func overlay(base, box []string, w int) []string {
	if len(box) == 0 || len(base) == 0 {
		return base
	}
	bw := cellWidth(box[0])
	x := max((w-bw)/2, 0)
	y := max((len(base)-len(box))/2, 0)
	out := append([]string(nil), base...)
	for i, l := range box {
		if y+i >= len(out) {
			break
		}
		b := out[y+i]
		out[y+i] = ansi.Truncate(b, x, "") + l + ansi.TruncateLeft(b, x+bw, "")
	}
	return out
}
