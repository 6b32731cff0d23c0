package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/drill-dev/drill/internal/format"
)

// inflightPane is the in-flight gauge: per rung, the calls and emails in
// flight now on a bar, the most calls in flight each second on the shared
// time axis, and Little's law (λ × W: calls started a second times the
// time a call stays in flight) beside them; above them, the emails in
// flight against the worker pool (--max-in-flight) and the rejections. A
// hang holds its callers: this is where it shows.
type inflightPane struct{ panel }

// inflightTitle is the pane's title.
const inflightTitle = "In flight"

// inflightHeight is the pane's height with its border: the pool line and
// two lines for each of the two model rungs.
const inflightHeight = 2 + 1 + 2*2

// wideHeight is the height the wide layout gives the gauge out of the
// calls pane's cH rows: for a run with a worker pool (--max-in-flight), all
// of it when the Calls charts keep 8 rows; else none.
func (p *inflightPane) wideHeight(pool bool, cH int) int {
	if pool && cH-inflightHeight >= 8 {
		return inflightHeight
	}
	return 0
}

func (p *inflightPane) refresh(st Styles, s *state, now time.Duration) {
	p.title = inflightTitle
	iw, _ := p.inner()
	p.setContent(st, renderInFlight(st, s, iw, now))
}

// renderInFlight draws the gauge's lines at width w.
func renderInFlight(st Styles, s *state, w int, now time.Duration) []string {
	pool := s.fold.Info.MaxInFlight
	emails := s.fold.EmailsInFlight()
	head := fmt.Sprintf("emails in flight %d", emails)
	if pool > 0 {
		head = fmt.Sprintf("emails in flight %d of %d workers", emails, pool)
		rejected := fmt.Sprintf("rejected %d", s.fold.Served().Rejected)
		if s.fold.Served().Rejected > 0 {
			rejected = st.Alert.Render(rejected)
		}
		head += " · " + rejected
	}
	out := []string{fit(head, w)}
	axis := axisFor(s, now)
	tc := timeCols{gw: max(w-gutter, 1), axis: axis}
	for _, rung := range callRungs(s) {
		calls, onRung := s.fold.InFlight(rung)
		perSecond, _ := s.fold.InFlightPerSecond(rung)
		peak := max(pool, 1)
		for _, c := range perSecond {
			peak = max(peak, c)
		}
		little := "λ×W " + format.Dash
		if lambda, wait, l, ok := s.fold.Little(rung); ok {
			little = fmt.Sprintf("λ×W %.1f×%s = %.1f", lambda, format.Secs(wait), l)
		}
		style := st.rungStyle(rung)
		label := st.Dim.Render(fmt.Sprintf("%-*s", gutter, short(rung)))
		figures := fmt.Sprintf("%d calls · %d emails · %s", calls, onRung, little)
		// A third of the width for every rung's bar, so the bars compare,
		// unless the figures need the room (the bar's two ends and a space).
		barW := min((w-gutter)/3, w-gutter-3-cellWidth(figures))
		line := label + figures
		if barW >= 4 {
			line = label + "▕" + style.Render(bar(calls, peak, barW)) + "▏ " + figures
		}
		out = append(out, fit(line, w), st.Dim.Render(strings.Repeat(" ", gutter))+sparkline(style, perSecond, peak, tc, now))
	}
	return out
}

// bar is a horizontal bar of n out of full in w cells.
func bar(n, full, w int) string {
	cells := min(n*w/max(full, 1), w)
	if n > 0 && cells == 0 {
		cells = 1 // something in flight always shows
	}
	return strings.Repeat("█", cells) + strings.Repeat("░", w-cells)
}
