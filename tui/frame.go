package tui

import (
	"strings"
	"time"
)

// layoutKey is everything the layout depends on: the window, the panes
// shown, and the heights the header, footer, summary, Breaker and Quality
// panes ask for. The layout is computed again only when it changes.
type layoutKey struct {
	w, h               int
	head, foot, sum    int
	detail             bool
	breakerH, qualityH int
	compact            bool // narrow and short: see stackedHeight
	pool               bool // the run has a worker pool: the in-flight gauge is shown (inflight.go)
}

// Layout thresholds.
const (
	// wideWidth is the narrowest window that puts Emails beside the others.
	wideWidth = 110
	// minEmailsH is the least height of the Emails pane when others share
	// the body: eight email rows, the column header and the border.
	minEmailsH = 11
	// stackedHeight is the least body height that stacks Emails, Calls and
	// the row of Breaker and Quality on a narrow terminal: minEmailsH, a
	// compact Calls pane (6) and the row (8).
	stackedHeight = minEmailsH + 6 + 8
)

// drawnState is what a tick's refresh depends on: a tick that changes none
// of it (a paused replay) leaves the panes as they are.
type drawnState struct {
	s    *state
	gen  int
	now  time.Duration
	done bool
}

// refresh brings every pane up to date in Update: first the content whose
// height decides the layout, then the layout if any of that changed, then
// each pane's content at the size the layout gave it. Its cost is bounded
// by the screen: the Emails pane renders only the rows in view and keeps
// answered rows cached.
func (m *Model) refresh() {
	w, h := m.width, m.hgt
	if w < minWidth || h < minHeight {
		// View shows a notice; no pane is on the screen for the mouse.
		m.laid = layoutKey{}
		for p := range paneCount {
			m.panel(p).SetSize(rect{})
		}
		m.detail.SetSize(rect{})
		return
	}
	st, s := m.st, m.s
	extra := ""
	if m.rp != nil {
		extra = m.rp.status()
	}
	m.header.SetSize(w)
	m.header.quality = false
	m.header.refresh(st, s, m.now, extra)
	m.foot = m.footer(w)
	m.summary.SetSize(w)
	m.summary.refresh(st, s, m.done)
	// A narrow terminal too short to stack every pane under eight emails
	// gets the compact layout: Breaker and Calls side by side under the
	// emails, the Quality pane's headline figure in the header.
	compact := w < wideWidth && h-len(m.header.lines)-len(m.foot)-len(m.summary.lines) < stackedHeight
	if compact {
		m.header.quality = true
		m.header.refresh(st, s, m.now, extra)
	}
	m.breaker.noStrips = compact
	// The panes' widths depend on the window alone, so Breaker and
	// Quality can be measured before the layout gives them their heights.
	bw, qw := w-w*11/20, w-w*11/20
	if w < wideWidth {
		bw, qw = w/2, w-w/2
	}
	m.breaker.measure(st, s, bw-2, m.now)
	m.quality.measure(st, s, qw-2)
	key := layoutKey{w: w, h: h, head: len(m.header.lines), foot: len(m.foot), sum: len(m.summary.lines),
		detail: m.detail.id != 0, breakerH: len(m.breaker.body), qualityH: len(m.quality.body), compact: compact,
		pool: s.fold.Info.MaxInFlight > 0}
	if key != m.laid {
		m.layout(key)
	}
	m.ep.refresh(st, s, m.now)
	m.breaker.refresh(st, s)
	m.calls.refresh(st, s, m.now)
	m.inflight.refresh(st, s, m.now)
	m.quality.refresh(st)
	m.detail.refresh(st, s, m.now)
	m.drawn = drawnState{s: s, gen: s.gen, now: m.now, done: m.done}
}

// layout is the one place that sizes the panes, for the window and the
// heights in k: the header, the panes, the summary once the run is over
// (on a short narrow terminal it takes the place of Breaker and Quality,
// whose figures are its own, final), and the footer.
func (m *Model) layout(k layoutKey) {
	m.laid = k
	w := k.w
	bh := k.h - k.head - k.foot - k.sum
	full := bh >= 24 || w >= 110 || k.sum == 0
	m.summary.shown = k.sum > 0
	if bh < 12 {
		m.summary.shown = false
		bh = k.h - k.head - k.foot
		full = true
	}
	m.bodyY, m.bodyH = k.head, bh
	for p := range paneCount {
		m.panel(p).SetSize(rect{})
	}
	m.ep.SetSize(rect{})
	m.detail.SetSize(rect{})
	m.inflight.SetSize(rect{})
	m.wide = w >= wideWidth
	m.compact = false
	body := rect{0, k.head, w, bh}
	switch {
	case k.detail:
		m.detail.SetSize(body)
	case m.wide:
		m.layoutWide(k, body)
	case k.compact:
		m.compact = true
		m.layoutCompact(k, body)
	default:
		m.layoutNarrow(k, body, full)
	}
	if r := m.panel(m.focus).rect; !k.detail && (r.w == 0 || r.h == 0) {
		m.focus = paneEmails // the focused pane is not drawn
	}
}

// layoutWide sizes the panes of a wide window, in body.
func (m *Model) layoutWide(k layoutKey, body rect) {
	y, w, bh := body.y, body.w, body.h
	// Wide: Emails on the left; Breaker, Calls and Quality on the right.
	lw := w * 11 / 20
	rw := w - lw
	// Breaker and Quality get the lines they ask for (the prediction
	// in full) up to a third of the body each; Calls keeps eight.
	bH := min(k.breakerH+2, max(bh/3, 5))
	qH := min(k.qualityH+2, max(bh/3, 6))
	cH := bh - bH - qH
	if cH < 8 {
		qH = max(qH-(8-cH), 5)
		cH = bh - bH - qH
	}
	m.ep.SetSize(rect{0, y, lw, bh})
	iH := m.inflight.wideHeight(k.pool, cH) // the in-flight gauge (inflight.go) under the Calls charts
	cH -= iH
	m.breaker.SetSize(rect{lw, y, rw, bH})
	m.calls.SetSize(rect{lw, y + bH, rw, cH})
	m.inflight.SetSize(rect{lw, y + bH + cH, rw, iH})
	m.quality.SetSize(rect{lw, y + bH + cH + iH, rw, qH})
}

// layoutCompact sizes the panes of a narrow, short window, in body.
func (m *Model) layoutCompact(k layoutKey, body rect) {
	y, w, bh := body.y, body.w, body.h
	// Narrow and short: Emails on top with at least eight rows; under
	// them Breaker (and Quality, if it has room) beside Calls (the Calls
	// pane draws the breaker strips), when there is room for them.
	low := bh - minEmailsH
	if low < 6 {
		low = 0
	}
	lw := w / 2
	m.ep.SetSize(rect{0, y, w, bh - low})
	if low > 0 {
		// Quality under Breaker when the Breaker's lines leave it five.
		bH := low
		if rest := low - (k.breakerH + 2); rest >= 5 {
			bH = low - rest
			m.quality.SetSize(rect{0, y + bh - low + bH, lw, rest})
		}
		m.breaker.SetSize(rect{0, y + bh - low, lw, bH})
		m.calls.SetSize(rect{lw, y + bh - low, w - lw, low})
	}
}

// layoutNarrow sizes the panes of a narrow window, in body; full says
// whether Breaker and Quality have room.
func (m *Model) layoutNarrow(k layoutKey, body rect, full bool) {
	y, w, bh := body.y, body.w, body.h
	// Narrow: Emails on top; Calls (with the breaker strips) across the
	// full width, so its time axis is as long as it can be; Breaker and
	// Quality side by side at the bottom.
	lw := w / 2
	rowH := min(max(k.qualityH, k.breakerH)+2, 8)
	if !full {
		rowH = 0
	}
	cH := min(max(bh*3/10, 6), 14)
	eH := bh - cH - rowH
	for eH < minEmailsH && (rowH > 6 || cH > 6) {
		// Keep eight emails in view: the others shrink first.
		if cH > 6 || rowH == 0 {
			cH--
		} else {
			rowH--
		}
		eH++
	}
	if eH < 5 && rowH > 0 {
		// Too short for all four: the emails before Breaker and Quality
		// (the header holds their headline figures).
		eH += rowH
		rowH = 0
	}
	m.ep.SetSize(rect{0, y, w, eH})
	m.calls.SetSize(rect{0, y + eH, w, cH})
	if rowH > 0 {
		m.breaker.SetSize(rect{0, y + eH + cH, lw, rowH})
		m.quality.SetSize(rect{lw, y + eH + cH, w - lw, rowH})
	}
}

// View draws the frame, or nothing once quitting (the screen is left
// clean). It changes no state.
func (m *Model) View() string {
	if m.quitting {
		return ""
	}
	return m.frame()
}

// frame draws the frame from what the panes hold: exactly the window's
// height in lines, none wider than the window.
func (m *Model) frame() string {
	if m.width <= 0 || m.hgt <= 0 {
		return ""
	}
	if m.width < minWidth || m.hgt < minHeight {
		return strings.Join(tooSmall(m.st, m.width, m.hgt), "\n")
	}
	lines := append([]string(nil), m.header.lines...)
	body := m.body()
	if m.showHelp {
		body = overlay(body, m.helpBox(m.width, m.bodyH), m.width)
	}
	lines = append(lines, body...)
	if m.summary.shown {
		lines = append(lines, m.summary.lines...)
	}
	lines = append(lines, m.foot...)
	return strings.Join(lines[:min(len(lines), m.hgt)], "\n")
}

// body draws the panes where the layout put them, or an email's detail.
func (m *Model) body() []string {
	st := m.st
	focused := func(p int) bool { return m.focus == p }
	if m.detail.id != 0 {
		return m.detail.view(st, true)
	}
	emails := m.ep.view(st, focused(paneEmails))
	breaker := m.breaker.view(st, focused(paneBreaker))
	calls := m.calls.view(st, focused(paneCalls))
	quality := m.quality.view(st, focused(paneQuality))
	if m.wide {
		inflight := m.inflight.view(st, false)
		return hjoin(emails, append(append(append(breaker, calls...), inflight...), quality...))
	}
	if m.compact {
		if len(breaker) == 0 {
			return emails
		}
		return append(emails, hjoin(append(breaker, quality...), calls)...)
	}
	out := append(emails, calls...)
	if len(breaker) > 0 {
		out = append(out, hjoin(breaker, quality)...)
	}
	return out
}
