package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/drill-dev/drill/event"
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
	feed  feeder
	ctl   Controls
	rp    *replayFeed // non-nil when replaying
	tick  time.Duration
	keys  keyMap
	help  help.Model
	width int
	hgt   int

	now      time.Duration
	done     bool
	focus    int
	ep       *emailsPane
	offs     [paneCount]int
	detail   int // email shown in detail, 0 for none
	detOff   int
	choosing bool // waiting for the outage kind after `o`
	flash    string
	quitting bool
}

func newModel(st Styles, feed feeder, ctl Controls, tick time.Duration) *Model {
	if tick <= 0 {
		tick = 150 * time.Millisecond
	}
	h := help.New()
	h.Styles.ShortKey = st.Bold
	h.Styles.FullKey = st.Bold
	h.Styles.ShortDesc = st.Dim
	h.Styles.FullDesc = st.Dim
	h.Styles.ShortSeparator = st.Dim
	h.Styles.FullSeparator = st.Dim
	_, replay := feed.(*replayFeed)
	m := &Model{
		st:   st,
		s:    newState(),
		feed: feed,
		ctl:  ctl,
		tick: tick,
		keys: newKeyMap(!replay),
		help: h,
		ep:   newEmailsPane(),
	}
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

// Update handles keys, resizes and ticks (which fold new events).
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.hgt = msg.Width, msg.Height
		m.help.Width = msg.Width
		return m, nil
	case tickMsg:
		m.ingest(msg.T)
		if m.quitting {
			return m, nil
		}
		return m, m.tickCmd()
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
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
}

// restart drops everything folded so far; a replay seeking backwards refolds
// from the first event.
func (m *Model) restart() {
	m.s = newState()
	m.ep = newEmailsPane()
	m.rp.idx = 0
	m.rp.reset = false
}

func (m *Model) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	m.flash = ""
	if key.Matches(msg, k.Quit) {
		if m.ctl != nil && !m.done {
			m.ctl.Stop()
		}
		m.quitting = true
		return m, tea.Quit
	}
	if m.choosing {
		if kind, ok := kindForKey(msg.String()); ok {
			m.startOutage(kind)
		} else if key.Matches(msg, k.Close) {
			m.choosing = false
		}
		return m, nil
	}
	switch {
	case key.Matches(msg, k.Help):
		m.help.ShowAll = !m.help.ShowAll
	case key.Matches(msg, k.Close):
		m.detail = 0
	case m.ctl != nil && key.Matches(msg, k.Pause):
		if m.done {
			break
		}
		if m.ctl.Paused() {
			m.ctl.Resume()
		} else {
			m.ctl.Pause()
		}
	case m.ctl != nil && key.Matches(msg, k.Outage):
		if m.done {
			break
		}
		if m.s.outageActive() {
			m.ctl.EndOutage()
		} else {
			m.choosing = true
		}
	case m.rp != nil && key.Matches(msg, k.Play):
		m.rp.paused = !m.rp.paused
	case m.rp != nil && key.Matches(msg, k.Rewind):
		m.rp.seek(-5 * time.Second)
		m.ingest(m.rp.lastT)
	case m.rp != nil && key.Matches(msg, k.Skip):
		m.rp.seek(5 * time.Second)
		m.ingest(m.rp.lastT)
	case m.rp != nil && key.Matches(msg, k.Faster):
		m.rp.setSpeed(m.rp.speed * 2)
	case m.rp != nil && key.Matches(msg, k.Slower):
		m.rp.setSpeed(m.rp.speed / 2)
	case key.Matches(msg, k.Focus):
		m.focus = (m.focus + 1) % paneCount
	case key.Matches(msg, k.Back):
		m.focus = (m.focus + paneCount - 1) % paneCount
	case key.Matches(msg, k.Up):
		m.scroll(-1)
	case key.Matches(msg, k.Down):
		m.scroll(1)
	case key.Matches(msg, k.PgUp):
		m.scroll(-m.page())
	case key.Matches(msg, k.PgDown):
		m.scroll(m.page())
	case key.Matches(msg, k.Follow):
		if m.focus == paneEmails && m.detail == 0 {
			m.ep.follow = true
		}
	case key.Matches(msg, k.Open):
		if m.focus == paneEmails && m.detail == 0 && m.s.rowCount() > 0 {
			m.ep.clamp(m.s.rowCount(), max(m.ep.vis, 1))
			m.detail = m.s.rowAt(m.ep.sel).ID
			m.detOff = 0
		}
	}
	return m, nil
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
	case m.detail != 0:
		m.detOff = max(m.detOff+d, 0)
	case m.focus == paneEmails:
		if m.ep.follow && d < 0 {
			m.ep.sel = m.s.rowCount() - 1
		}
		m.ep.scroll(d, m.s.rowCount())
	default:
		m.offs[m.focus] = max(m.offs[m.focus]+d, 0)
	}
}

// View renders the whole frame: exactly the window's height in lines, none
// wider than the window.
func (m *Model) View() string {
	if m.width <= 0 || m.hgt <= 0 {
		return ""
	}
	if m.quitting {
		return ""
	}
	return strings.Join(m.frame(m.width, m.hgt), "\n")
}

// frame lays the panes out for a w×h window.
func (m *Model) frame(w, h int) []string {
	st, s := m.st, m.s
	extra := ""
	if m.rp != nil {
		extra = m.rp.status()
	}
	lines := renderHeader(st, s, w, m.now, extra)

	var foot []string
	switch {
	case m.choosing:
		segs := kindMenu()
		segs[0] = st.Alert.Render("outage kind:") + " " + segs[0]
		foot = wrapSegments(segs, " · ", w)
	case m.flash != "":
		foot = []string{st.Alert.Render(m.flash)}
	default:
		foot = strings.Split(m.help.View(m.keys), "\n")
	}
	for i := range foot {
		foot[i] = fit(foot[i], w)
	}
	var sum []string
	if m.done {
		segs := summarySegments(st, s.summary)
		inner := wrapSegments(segs, " · ", w-2)
		sum = box(st, "Summary", false, w, len(inner)+2, inner)
	}
	bh := h - len(lines) - len(foot) - len(sum)
	if bh < 3 {
		// Too small for panes: keep the header, the summary and the keys.
		for len(lines)+len(sum)+len(foot) < h {
			lines = append(lines, strings.Repeat(" ", w))
		}
		all := append(append(lines, sum...), foot...)
		return all[:min(len(all), h)]
	}
	lines = append(lines, m.body(w, bh)...)
	lines = append(lines, sum...)
	lines = append(lines, foot...)
	return lines[:min(len(lines), h)]
}

// body lays out the panes (or an email's detail) in w×h.
func (m *Model) body(w, h int) []string {
	st, s := m.st, m.s
	if m.detail != 0 {
		c := renderDetail(st, s, m.detail, m.now)
		m.detOff = min(m.detOff, max(len(c)-(h-2), 0))
		return box(st, fmt.Sprintf("Email #%d (esc closes)", m.detail), true, w, h, c[m.detOff:])
	}
	if w >= 110 {
		lw := w * 11 / 20
		rw := w - lw
		left := m.pane(paneEmails, lw, h)
		bl := renderBreaker(st, s, rw-2, 0, m.now)
		bH := min(len(bl)+2, max(h/4, 5))
		ql := renderQuality(st, s, rw-2, 0)
		qH := min(len(ql)+2, max(h/3, 6))
		cH := h - bH - qH
		if cH < 6 {
			qH = max(qH-(6-cH), 4)
			cH = h - bH - qH
		}
		right := append(append(m.pane(paneBreaker, rw, bH), m.pane(paneCalls, rw, cH)...), m.pane(paneQuality, rw, qH)...)
		return hjoin(left, right)
	}
	// Narrow: Emails on top, Breaker under it, Calls and Quality side by side.
	bl := renderBreaker(st, s, w-2, 0, m.now)
	bH := min(len(bl)+2, 6)
	lw := w / 2
	ql := renderQuality(st, s, w-lw-2, 0)
	rowH := min(max(len(ql)+2, 6), 9, max(h/3, 5))
	eH := h - bH - rowH
	if eH < 4 {
		// Give the emails at least a header and a row; the others shrink.
		need := 4 - eH
		cut := min(need, max(rowH-4, 0))
		rowH -= cut
		need -= cut
		bH = max(bH-need, 3)
		eH = h - bH - rowH
	}
	out := m.pane(paneEmails, w, eH)
	out = append(out, m.pane(paneBreaker, w, bH)...)
	out = append(out, hjoin(m.pane(paneCalls, lw, rowH), m.pane(paneQuality, w-lw, rowH))...)
	return out
}

// pane renders one pane's box at w×h, scrolled by its offset.
func (m *Model) pane(p, w, h int) []string {
	st, s := m.st, m.s
	if h <= 0 {
		return nil
	}
	iw, ih := w-2, h-2
	var c []string
	switch p {
	case paneEmails:
		c = m.ep.render(st, s, iw, ih, m.now)
	case paneBreaker:
		c = renderBreaker(st, s, iw, ih, m.now)
	case paneCalls:
		c = renderCalls(st, s, iw, ih, m.now)
	case paneQuality:
		c = renderQuality(st, s, iw, ih)
	}
	if p != paneEmails {
		off := min(m.offs[p], max(len(c)-ih, 0))
		m.offs[p] = off
		c = c[off:]
	}
	return box(st, paneTitles[p], m.focus == p, w, h, c)
}
