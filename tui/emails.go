package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// emailsPane is the lazy email timeline: it renders only the rows on screen
// and caches the rows of answered emails, so its cost depends on the window,
// not on how many emails the run has.
type emailsPane struct {
	panel
	top    int  // first row shown
	sel    int  // selected row
	follow bool // keep the newest rows in view
	shown  int  // the email the highlighted row showed when last drawn; 0 for none

	cache    map[int]cachedRow
	cacheKey emailsCacheKey
	vis      int // emails the pane's size shows (rows, or row pairs with the baseline)

	// showBase draws the baseline's bar for the same email under each row
	// (the b key), when the baseline was replayed.
	showBase bool

	filter string // "" for every email, else a filter validFilter accepts
	idx    []int  // with a filter: the matching rows' indexes in sent order
	idxGen int    // the state's gen idx was computed at; -1 when stale
}

type cachedRow struct {
	version int
	text    string
}

// emailsCacheKey is what a cached row's text depends on besides the row.
type emailsCacheKey struct {
	width int
	axis  time.Duration
	wins  int
}

func newEmailsPane() *emailsPane {
	return &emailsPane{follow: true, cache: map[int]cachedRow{}, idxGen: -1}
}

// filters are the words the Emails pane's `/` accepts besides an email
// number and "class NAME", in the order the prompt lists them: the one
// place that defines them (filterWords, the prompt and its error message
// read it).
var filters = []struct {
	word  string
	match func(r *row) bool
}{
	{"primary", func(r *row) bool { return r.Done && r.Result.ServedBy == "primary" }},
	{"backup", func(r *row) bool { return r.Done && r.Result.ServedBy == "backup" }},
	{"canned", func(r *row) bool { return r.Done && r.Result.ServedBy == "canned" }},
	{"errors", func(r *row) bool { return r.Done && r.Result.ServedBy == "error" }},
	{"handed", func(r *row) bool { return r.Done && r.Result.ServedBy == event.ServedHandedOver }},
	{"wrong", func(r *row) bool { return r.Answered && r.Scored && !r.All4 }},
	{"waiting", func(r *row) bool { return !r.Done }},
}

// filterWords maps each filter word to its test.
var filterWords = func() map[string]func(r *row) bool {
	m := make(map[string]func(r *row) bool, len(filters))
	for _, f := range filters {
		m[f.word] = f.match
	}
	return m
}()

// filterNames lists the filters for the prompt: every word, then "class
// NAME" when the run has routes, then an email number.
func filterNames(routes bool) []string {
	names := make([]string, 0, len(filters)+2)
	for _, f := range filters {
		names = append(names, f.word)
	}
	if routes {
		names = append(names, "class NAME")
	}
	return append(names, "an email number")
}

// classFilter reads a class filter, "class NAME" (a run with routes): the
// class's name and whether f is one.
func classFilter(f string) (string, bool) {
	name, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(f)), "class ")
	name = strings.TrimSpace(name)
	return name, ok && name != ""
}

// classWidth is the class column's width: the longest class name of the
// run's routes, at most 14; 0 (no column) for a run without routes.
func classWidth(s *state) int {
	w := 0
	for _, r := range s.fold.Info.Routes {
		w = max(w, len(r.Class))
	}
	return min(w, 14)
}

// matcher returns the test a filter applies: a word (errors, backup,
// canned, primary, wrong, waiting; "error" and "wrong answers" too), or
// an email number.
func matcher(f string) (func(r *row) bool, bool) {
	f = strings.ToLower(strings.TrimSpace(f))
	switch f {
	case "error":
		f = "errors"
	case "wrong answers", "wrong answer":
		f = "wrong"
	}
	if m, ok := filterWords[f]; ok {
		return m, true
	}
	if id, err := strconv.Atoi(strings.TrimPrefix(f, "#")); err == nil {
		return func(r *row) bool { return r.ID == id }, true
	}
	return nil, false
}

// validFilter reports whether f is a filter the pane understands.
func validFilter(f string) bool {
	_, ok := matcher(f)
	_, class := classFilter(f)
	return ok || class
}

// setFilter shows only the rows matching f ("" shows all) and follows the
// newest of them.
func (p *emailsPane) setFilter(f string) {
	p.filter, p.idxGen = f, -1
	p.idx = p.idx[:0]
	p.top, p.sel, p.follow = 0, 0, true
}

// rows brings the filtered index up to date with the state: one pass over
// the emails per batch of events, only while a filter is on.
func (p *emailsPane) rows(s *state) {
	if p.filter == "" || p.idxGen == s.gen {
		return
	}
	match, ok := matcher(p.filter)
	if name, class := classFilter(p.filter); class {
		match, ok = func(r *row) bool { return s.fold.Class(r.ID) == name }, true
	}
	p.idx = p.idx[:0]
	if ok {
		for i, n := 0, s.rowCount(); i < n; i++ {
			if match(s.rowAt(i)) {
				p.idx = append(p.idx, i)
			}
		}
	}
	p.idxGen = s.gen
}

// count is the number of rows the pane lists.
func (p *emailsPane) count(s *state) int {
	if p.filter == "" {
		return s.rowCount()
	}
	p.rows(s)
	return len(p.idx)
}

// at is the pane's i-th row.
func (p *emailsPane) at(s *state, i int) *row {
	if p.filter == "" {
		return s.rowAt(i)
	}
	p.rows(s)
	return s.rowAt(p.idx[i])
}

// find is the pane's row index of email id, or -1.
func (p *emailsPane) find(s *state, id int) int {
	for i, n := 0, p.count(s); i < n; i++ {
		if p.at(s, i).ID == id {
			return i
		}
	}
	return -1
}

// selectRow selects row i and stops following the newest.
func (p *emailsPane) selectRow(i int) {
	if i >= 0 {
		p.sel, p.follow = i, false
	}
}

// axis is the shared time axis of the Emails and Breaker panes: the planned
// length of the run plus a tail, growing in 10 s steps if the run outlasts
// it, so cached rows stay valid for long stretches.
func axisFor(s *state, now time.Duration) time.Duration {
	info := s.fold.Info
	planned := 30 * time.Second
	if info.Rate > 0 && info.Emails > 0 {
		planned = time.Duration(float64(info.Emails)/info.Rate*float64(time.Second)) + 20*time.Second
	}
	if to := time.Duration(info.OutageToS * float64(time.Second)); to+20*time.Second > planned {
		planned = to + 20*time.Second
	}
	// A corrupt journal's offsets must not overflow the axis: it ends at
	// the longest series the fold keeps at most.
	a := min(max(planned, now, s.last()), scoring.MaxSeriesSeconds*time.Second)
	step := 10 * time.Second
	return (a + step - 1) / step * step
}

// scroll moves the selection by d rows; moving to the last row resumes
// following the newest.
func (p *emailsPane) scroll(d, n int) {
	if n == 0 {
		return
	}
	p.sel = min(max(p.sel+d, 0), n-1)
	p.follow = p.sel == n-1 && d > 0
}

// clamp keeps the selection on screen for n rows and vis visible lines.
func (p *emailsPane) clamp(n, vis int) {
	if vis < 1 {
		vis = 1
	}
	if n == 0 {
		p.top, p.sel = 0, 0
		return
	}
	if p.follow {
		p.sel = n - 1
	}
	p.sel = min(max(p.sel, 0), n-1)
	if p.sel < p.top {
		p.top = p.sel
	}
	if p.sel >= p.top+vis {
		p.top = p.sel - vis + 1
	}
	p.top = min(max(p.top, 0), max(n-vis, 0))
}

// senderWidth is the sender column's width for an inner width.
func senderWidth(w int) int {
	switch {
	case w >= 100:
		return 16
	case w >= 60:
		return 12
	default:
		return 8
	}
}

// SetSize sets the pane's place; its rows are its inner height less the
// column header.
func (p *emailsPane) SetSize(r rect) {
	p.rect = r
	_, ih := p.inner()
	p.vis = max(ih-1, 0)
	if p.showBase {
		p.vis /= 2 // each email takes its row and the baseline's under it
	}
}

// toggleBaseline shows or hides the baseline's bar under each row.
func (p *emailsPane) toggleBaseline() {
	p.showBase = !p.showBase
	p.SetSize(p.rect)
}

// sync keeps the selection on screen for the rows the state has now: the
// newest when following.
func (p *emailsPane) sync(s *state) { p.clamp(p.count(s), max(p.vis, 1)) }

// refresh brings the pane's title and content up to date with the state.
func (p *emailsPane) refresh(st Styles, s *state, now time.Duration) {
	p.sync(s)
	p.title = paneTitles[paneEmails]
	if p.filter != "" {
		p.title += fmt.Sprintf(" · filter %s: %d of %d", p.filter, p.count(s), s.rowCount())
	}
	p.content = p.render(st, s, now)
}

// render draws the pane's content at its inner size: a column header and
// the visible rows from the top row sync chose. Rows of answered emails
// come from the cache, which is a memo: it never changes what is drawn.
func (p *emailsPane) render(st Styles, s *state, now time.Duration) []string {
	p.shown = 0
	w, h := p.inner()
	if h <= 0 || w <= 0 {
		return nil
	}
	axis := axisFor(s, now)
	key := emailsCacheKey{width: w, axis: axis, wins: s.winStamp()}
	if key != p.cacheKey {
		clear(p.cache)
		p.cacheKey = key
	}
	sw, cw := senderWidth(w), classWidth(s)
	fixed := 1 + 5 + 1 + sw + 1 + 6 + 1 + 6 + 1 + 1 + 1
	if cw > 0 {
		fixed += cw + 1
	}
	bw := max(w-fixed, 1)

	out := make([]string, 0, h)
	head := fmt.Sprintf(" %5s %-*s %6s %6s %s ", "#", sw, "from", "sent", "wait", " ")
	if cw > 0 {
		head = fmt.Sprintf(" %5s %-*s %-*s %6s %6s %s ", "#", sw, "from", cw, "class", "sent", "wait", " ")
	}
	// The time axis reads as the Breaker and Calls panes' (axisLabels).
	out = append(out, st.Dim.Render(fit(head+axisLabels(axis, bw), w)))

	n := p.count(s)
	for i := p.top; i < n && len(out) < h; i++ {
		r := p.at(s, i)
		mark := " "
		if i == p.sel {
			// Following or not, the selected row is marked: enter opens it.
			mark = st.Selected.Render("›")
			p.shown = r.ID
		}
		out = append(out, mark+p.rowText(st, s, r, sw, cw, bw, axis, now))
		if p.showBase && len(out) < h {
			out = append(out, " "+p.baselineText(st, s, r.ID, sw, cw, bw, axis, now))
		}
	}
	if n == 0 && p.filter != "" {
		out = append(out, st.Dim.Render(" no email matches the filter (esc clears it)"))
	} else if n == 0 {
		out = append(out, st.Dim.Render(" waiting for the first email…"))
	}
	for len(out) < h {
		out = append(out, "")
	}
	return out
}

// rowText renders one row (without its marker), its sender sw cells wide
// and its class cw (0: no class column), from the cache when the email is
// answered.
func (p *emailsPane) rowText(st Styles, s *state, r *row, sw, cw, bw int, axis, now time.Duration) string {
	if r.Done {
		if c, ok := p.cache[r.ID]; ok && c.version == r.Version {
			return c.text
		}
	}
	from := "—"
	if e, ok := emails.Recorded(r.ID, r.Truth != nil); ok {
		from = senderCell(e.From, sw)
	}
	end, tag := barEnd(r, now)
	ts, _ := st.served(r.Result.ServedBy)
	if cw > 0 {
		from = fit(from, sw) + " " + fit(s.fold.Class(r.ID), cw)
	} else {
		from = fit(from, sw)
	}
	text := rowHead(strconv.Itoa(r.ID), from, format.Cell(r.Sent, 1), format.Cell(r.WaitAt(now), 1)) +
		" " + ts.Render(tag) + " " + p.bar(st, s, r, bw, axis, end, false)
	if r.Done {
		p.cache[r.ID] = cachedRow{version: r.Version, text: text}
	}
	return text
}

// baselineText is the line under email id's row: the same email in the
// replayed baseline at the same elapsed time, on the same axis, its bar
// in the same glyphs dimmed. The record is the baseline's fold's
// (s.baseline), never recomputed here.
func (p *emailsPane) baselineText(st Styles, s *state, id, sw, cw, bw int, axis, now time.Duration) string {
	label := sw
	if cw > 0 {
		label += 1 + cw
	}
	name := fit(pick(label, "baseline", "base"), label)
	r, ok := s.baseline.email(id)
	if !ok {
		state := "not sent yet"
		if !s.baseline.replayed() {
			state = "playing…"
		}
		return st.Dim.Render(rowHead("", name, "", "") + "   " + state) // a blank tag
	}
	end, tag := barEnd(r, now)
	ts, _ := st.served(r.Result.ServedBy)
	head := st.Dim.Render(rowHead("", name, format.Cell(r.Sent, 1), format.Cell(r.WaitAt(now), 1)))
	return head + " " + ts.Faint(true).Render(tag) + " " + p.bar(st, s, r, bw, axis, end, true)
}

// rowHead is the columns before a row's tag: the email's id, its sender
// (and class) cell, when it was sent and how long it waited; one layout
// for the live row and the baseline's line under it.
func rowHead(id, sender, sent, wait string) string {
	return fmt.Sprintf("%5s %s %6s %6s", id, sender, sent, wait)
}

// barEnd is where an email's bar ends at now and the tag written beside
// it: its answer's time and who served it ("x" when the run's end cut it
// off), or now and "…" while it waits; never before it was sent.
func barEnd(r *row, now time.Duration) (time.Duration, string) {
	end, tag := now, "…"
	if r.Done {
		end, tag = r.DoneAt, tagFor(r.Result.ServedBy)
		if r.Result.Cancelled {
			tag = "x" // cut off by the end of the run: never answered
		}
	}
	return max(end, r.Sent), tag
}

// senderCell is a sender's address for a column sw cells wide: whole when
// it fits, else its name before the "@" (the domain is dropped at its
// boundary, not cut inside a word), cut only when the name alone is
// wider than the column.
func senderCell(from string, sw int) string {
	if cellWidth(from) <= sw {
		return from
	}
	if name, _, ok := strings.Cut(from, "@"); ok && name != "" {
		return name
	}
	return from
}

// tagFor is the one-letter served-by tag written beside a bar.
func tagFor(servedBy string) string {
	switch servedBy {
	case "primary":
		return "P"
	case "backup":
		return "B"
	case "canned":
		return "C"
	case "error":
		return "E"
	case event.ServedHandedOver:
		return "H"
	case "rejected":
		return "R" // turned away by the worker pool (--max-in-flight)
	}
	return "…"
}

// bar draws an email's span on the shared axis: its glyph and colour say
// who served it; cells inside an outage window are dotted. A dimmed bar
// (the baseline's) has the same glyphs, faint.
func (p *emailsPane) bar(st Styles, s *state, r *row, bw int, axis, end time.Duration, dim bool) string {
	style, glyph := st.served(r.Result.ServedBy)
	if dim {
		style = style.Faint(true)
	}
	col := func(t time.Duration) int {
		return int(int64(t) * int64(bw) / int64(axis))
	}
	from, to := col(r.Sent), col(end)
	from = min(max(from, 0), bw-1)
	to = min(max(to, from), bw-1)
	var sb strings.Builder
	run := func(st lipgloss.Style, g rune, k int) {
		if k > 0 {
			sb.WriteString(st.Render(strings.Repeat(string(g), k)))
		}
	}
	// Cells before and after the bar: blank, or dotted inside an outage.
	gap := func(a, b int) {
		k, dotted := 0, false
		for c := a; c < b; c++ {
			t := time.Duration(int64(axis) * int64(c) / int64(bw))
			d := inWindows(s, t, axis)
			if d != dotted && k > 0 {
				if dotted {
					run(st.Outage, '·', k)
				} else {
					sb.WriteString(strings.Repeat(" ", k))
				}
				k = 0
			}
			dotted = d
			k++
		}
		if dotted {
			run(st.Outage, '·', k)
		} else if k > 0 {
			sb.WriteString(strings.Repeat(" ", k))
		}
	}
	gap(0, from)
	run(style, glyph, to-from+1)
	gap(to+1, bw)
	return sb.String()
}

// inWindows reports whether t falls in an outage window (injected, or
// observed when drill injected none); an open window
// runs to its scheduled end if it has one, else to the axis end.
func inWindows(s *state, t, axis time.Duration) bool {
	_, ws := s.fold.Basis()
	for _, w := range ws {
		end := w.To
		if end < 0 {
			end = axis
			if w.ScheduledEnd > w.From {
				end = w.ScheduledEnd
			}
		}
		if t >= w.From && t < end {
			return true
		}
	}
	return false
}
