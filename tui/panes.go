package tui

import (
	"fmt"
	"time"
)

// Every pane of the dashboard is a component: it owns its place and size
// on the screen (given by the model's one layout function, on a resize or
// when a pane is toggled, never while drawing), its own view state (a
// scroll offset, a selection), and its content for the current frame,
// refreshed in Update from the fold. View only draws what the panes hold
// and changes nothing.

// panel is what every boxed pane owns.
type panel struct {
	rect             // where the layout put it; zero when hidden
	title   string   // the title in its top edge
	off     int      // scroll offset, in content lines
	content []string // the lines inside the box, refreshed in Update
}

// SetSize sets the pane's place on the screen; a zero rect hides it.
func (p *panel) SetSize(r rect) { p.rect = r }

// inner is the size inside the border.
func (p *panel) inner() (w, h int) { return max(p.w-2, 0), max(p.h-2, 0) }

// scrollBy moves the pane's scroll offset by d lines (never above the top;
// setContent keeps it above the bottom).
func (p *panel) scrollBy(d int) { p.off = max(p.off+d, 0) }

// setContent keeps the lines c, scrolled by the pane's offset. A pane with
// more lines than fit ends in "…N more", so nothing is dropped silently.
func (p *panel) setContent(st Styles, c []string) {
	_, ih := p.inner()
	p.off = min(p.off, max(len(c)-ih, 0))
	c = c[p.off:]
	if len(c) > ih && ih > 0 {
		more := len(c) - ih + 1
		c = append(c[:ih-1:ih-1], st.Dim.Render(fmt.Sprintf("…%d more (tab here, ↓)", more)))
	}
	p.content = c
}

// view draws the pane's box: exactly its height in lines of its width.
func (p *panel) view(st Styles, focused bool) []string {
	if p.h <= 0 {
		return nil
	}
	return box(st, p.title, focused, p.w, p.h, p.content)
}

// headerPane is the header: the outage and the clock, the headline
// figures and the policy, as many lines as they wrap to at its width.
type headerPane struct {
	w       int
	quality bool // the Quality pane is hidden: its headline figure is here
	lines   []string
}

// SetSize sets the header's width; its height is its content's.
func (p *headerPane) SetSize(w int) { p.w = w }

func (p *headerPane) refresh(st Styles, s *state, now time.Duration, extra string) {
	p.lines = renderHeaderWith(st, s, p.w, now, extra, p.quality)
}

// summaryPane is the run's summary, boxed, once the run is over; the
// layout hides it on a short narrow terminal.
type summaryPane struct {
	w     int
	shown bool     // the layout left room for it
	lines []string // the whole box; nil while the run goes on
}

// SetSize sets the summary's width; its height is its content's.
func (p *summaryPane) SetSize(w int) { p.w = w }

func (p *summaryPane) refresh(st Styles, s *state, done bool) {
	p.lines = nil
	if !done {
		return
	}
	inner := wrapSegments(summarySegments(st, s.summary), " · ", p.w-2)
	p.lines = box(st, "Summary", false, p.w, len(inner)+2, inner)
}

// breakerPane shows each breaker: state, opens, first open, probes and a
// strip of its state on the shared time axis.
type breakerPane struct {
	panel
	body     []string // the content without the legend, for the layout
	noStrips bool     // the Calls pane beside it draws the strips and axis
}

// measure renders the content at inner width w, before the layout: its
// length is the height the pane asks for.
func (p *breakerPane) measure(st Styles, s *state, w int, now time.Duration) {
	p.body = breakerContent(st, s, w, now, !p.noStrips)
}

func (p *breakerPane) refresh(st Styles, s *state) {
	_, ih := p.inner()
	if p.noStrips {
		p.setContent(st, p.body)
		return
	}
	p.setContent(st, withLegend(st, s, p.body, ih))
}

// callsPane charts the calls per second of each model.
type callsPane struct{ panel }

func (p *callsPane) refresh(st Styles, s *state, now time.Duration) {
	iw, ih := p.inner()
	p.setContent(st, renderCalls(st, s, iw, ih, now))
}

// qualityPane shows who served the emails and how right the answers are.
type qualityPane struct {
	panel
	body []string
}

// measure renders the content at inner width w, before the layout.
func (p *qualityPane) measure(st Styles, s *state, w int) {
	p.body = renderQuality(st, s, w, 0)
}

func (p *qualityPane) refresh(st Styles) { p.setContent(st, p.body) }

// detailPane shows one email's calls and answer over the whole body.
type detailPane struct {
	panel
	id int // the email shown; 0 when the detail is closed
}

// open shows email id from its top; close hides it.
func (p *detailPane) open(id int) { p.id, p.off = id, 0 }
func (p *detailPane) close()      { p.id = 0 }

func (p *detailPane) refresh(st Styles, s *state, now time.Duration) {
	if p.id == 0 {
		p.content = nil
		return
	}
	c := renderDetail(st, s, p.id, now)
	_, ih := p.inner()
	p.off = min(p.off, max(len(c)-ih, 0))
	p.title = fmt.Sprintf("Email #%d (esc closes)", p.id)
	p.content = c[p.off:]
}
