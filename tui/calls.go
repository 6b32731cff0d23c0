package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/NimbleMarkets/ntcharts/barchart"
	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/linechart"
	"github.com/charmbracelet/lipgloss"

	"github.com/drill-dev/drill/event"
)

// A call is one HTTP request to a model: every SDK retry is another call.
// The Calls pane counts them per second, per model.

// gutter is the width of the y-axis labels left of every time chart and
// strip, so the Calls charts, the breaker strips and the time axis share
// their columns.
const gutter = 5

// callRungs lists the rungs that call a model, in chain order.
func callRungs(s *state) []string {
	var names []string
	seen := map[string]bool{}
	for _, r := range s.fold.Info.Rungs {
		if r.Name == event.ServedCanned || r.Name == event.ServedRules || seen[r.Name] {
			continue
		}
		seen[r.Name] = true
		names = append(names, r.Name)
	}
	for _, n := range []string{event.ServedPrimary, event.ServedBackup} {
		if !seen[n] && len(s.fold.AttemptsPerSecond(n)) > 0 {
			seen[n] = true
			names = append(names, n)
		}
	}
	return names
}

// timeCols maps a chart's gw columns onto the shared time axis.
type timeCols struct {
	gw   int
	axis time.Duration
}

// at is the time at the left edge of column c.
func (tc timeCols) at(c int) time.Duration {
	if tc.gw <= 0 {
		return 0
	}
	return time.Duration(int64(tc.axis) * int64(c) / int64(tc.gw))
}

// second is the second a column stands for: the per-second sample whose
// value it shows is the largest of the seconds starting in its slice, or
// the one containing its left edge when the slice is under a second.
func (tc timeCols) seconds(c int) (lo, hi int) {
	t0, t1 := tc.at(c), tc.at(c+1)
	lo = int(t0 / time.Second)
	hi = int((t1 + time.Second - 1) / time.Second)
	if t0%time.Second != 0 && hi-lo > 1 {
		lo++
	}
	return lo, max(hi, lo+1)
}

// renderCalls draws the Calls pane's content: per model its calls per
// second with the retries among them as a second series, the longest
// waits when there is room, each breaker's state strip, and a time axis in
// seconds — all on the same columns.
func renderCalls(st Styles, s *state, w, h int, now time.Duration) []string {
	if w <= 0 || h <= 0 {
		return nil
	}
	rungs := callRungs(s)
	if len(rungs) == 0 {
		return []string{st.Dim.Render("no model in this policy")}
	}
	axis := axisFor(s, now)
	gw := max(w-gutter, 1)
	tc := timeCols{gw: gw, axis: axis}
	brk := s.fold.Breakers()
	// Fixed rows: the breaker strips and the time axis.
	fixed := len(brk) + 1
	avail := h - fixed
	var out []string
	perRung := 0
	if len(rungs) > 0 {
		perRung = avail / len(rungs)
	}
	legend := false
	if perRung >= 4 {
		// Label line and a chart of at least 3 rows per model.
		if (avail-1)/len(rungs) >= 4 {
			legend = true
			avail--
			perRung = avail / len(rungs)
		}
		// The waits chart under the models' when each block keeps a label
		// and four chart rows.
		blocks := len(rungs)
		if avail/(blocks+1) >= 5 {
			blocks++
			perRung = avail / blocks
		}
		for i := range blocks {
			rows := perRung - 1
			if i == blocks-1 {
				rows = avail - (blocks-1)*perRung - 1
			}
			if i == len(rungs) {
				out = append(out, st.Backup.Render("waits")+pick(w-5, " · the longest wait of the emails sent (s)", " · longest per column (s)", " (s)"))
				out = append(out, waitsChart(st, s, tc, rows, now)...)
				continue
			}
			out = append(out, fit(callsLabel(st, s, rungs[i], w), w))
			out = append(out, callsChart(st, s, rungs[i], tc, rows, now)...)
		}
	} else {
		// Compact: one sparkline row per model, and one of its retries
		// (on the calls' scale) when there is room.
		retryRows := avail >= 2*len(rungs)
		for _, r := range rungs {
			calls := s.fold.AttemptsPerSecond(r)
			peak := max(slices.Max(append([]int{1}, calls...)), 1)
			lab := fmt.Sprintf("%-*s", gutter, short(r))
			out = append(out, st.rungStyle(r).Render(lab)+sparkline(st.Dim, calls, peak, tc, now))
			if retryRows {
				out = append(out, st.Alert.Render(fmt.Sprintf("%-*s", gutter, " rty"))+sparkline(st.Alert, s.fold.RetriesPerSecond(r), peak, tc, now))
			}
		}
	}
	for _, name := range brk {
		out = append(out, st.Dim.Render(fmt.Sprintf("%-*s", gutter, short(name)))+strip(st, s.fold.Breaker(name).Changes, tc, now))
	}
	out = append(out, timeAxis(st, tc))
	if legend {
		// The longest legend that fits whole.
		r, o := st.Alert.Render("░"), st.Outage.Render("·")
		out = append(out, st.Dim.Render(pick(w,
			fmt.Sprintf("█ calls/s  %s retries among them  %s outage", r, o),
			fmt.Sprintf("█ calls/s  %s retries  %s outage", r, o),
			fmt.Sprintf("█ calls  %s retries", r))))
	}
	return out
}

// short is a rung or breaker name cut to fit the gutter.
func short(name string) string {
	if len(name) >= gutter {
		return name[:gutter-1]
	}
	return name
}

func cellWidth(s string) int { return lipgloss.Width(s) }

// callsLabel is a model's line above its chart: the long form when it
// fits, else shorter ones, so the figures stay whole.
func callsLabel(st Styles, s *state, rung string, w int) string {
	total, retries := s.fold.AttemptsPerSecond(rung).Sum(), s.fold.RetriesPerSecond(rung).Sum()
	name := rung
	if m := s.fold.Model(rung); m != "" {
		name += " " + m
	}
	style := st.rungStyle(rung)
	for _, l := range []string{
		fmt.Sprintf(" · %d calls, %d of them retries (calls/s)", total, retries),
		fmt.Sprintf(" · %d calls, %d retries", total, retries),
		fmt.Sprintf(" %d calls %d rty", total, retries),
	} {
		if cellWidth(name+l) <= w {
			return style.Render(name) + l
		}
	}
	return style.Render(rung) + fmt.Sprintf(" %d calls %d rty", total, retries)
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v int) int {
	if v <= 1 {
		return 1
	}
	p := int(math.Pow(10, math.Floor(math.Log10(float64(v)))))
	for _, m := range []int{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// callsChart draws one model's calls per second as columns of rows lines,
// the retries among them stacked at the foot of each column in another
// glyph and colour, outage columns dotted, y ticks at round values. The
// columns are an ntcharts bar chart: each column is one stacked bar
// (retries, then the other calls) holding the largest second of its slice
// of the time axis, on a scale from 0 to a round top.
func callsChart(st Styles, s *state, rung string, tc timeCols, rows int, now time.Duration) []string {
	rows = max(rows, 1)
	cols := bucketCalls(s, rung, tc, now)
	peak := 1
	for _, c := range cols {
		peak = max(peak, c.v)
	}
	top := niceCeil(peak)
	grid := columnGrid(st, s, rung, cols, tc, rows, top)
	ticks := yTicks(rows, top)
	out := make([]string, rows)
	for y := range grid {
		lab := ticks(rows-1-y, float64(top)*float64(rows-1-y)/float64(rows))
		edge := "┤"
		if lab == "" {
			edge = "│"
		}
		out[y] = st.Dim.Render(fmt.Sprintf("%*s%s", gutter-1, lab, edge)) + grid[y]
	}
	return out
}

// callCol is one column of a Calls chart: the largest per-second count of
// calls in its slice of the time axis and the retries among that second's
// calls; live when its slice has begun, out when it lies in an outage.
type callCol struct {
	v, r      int
	live, out bool
}

// bucketCalls reduces a model's per-second calls and retries to the
// chart's columns before they are pushed to the chart: each column keeps
// its slice's busiest second (max per column), so a narrow pane never
// averages a burst away.
func bucketCalls(s *state, rung string, tc timeCols, now time.Duration) []callCol {
	calls, retries := s.fold.AttemptsPerSecond(rung), s.fold.RetriesPerSecond(rung)
	cols := make([]callCol, tc.gw)
	for c := range cols {
		lo, hi := tc.seconds(c)
		best, br := 0, 0
		for sec := lo; sec < hi && sec < len(calls); sec++ {
			if calls[sec] > best {
				best = calls[sec]
				br = 0
				if sec < len(retries) {
					br = retries[sec]
				}
			}
		}
		cols[c] = callCol{v: best, r: min(br, best), live: tc.at(c) <= now, out: inWindows(s, tc.at(c), tc.axis)}
	}
	return cols
}

// yTicks is the label formatter of a chart of rows rows scaled 0..top: it
// labels a row (counted from the bottom, 0 first) by the value at its top
// edge when that value is round — the top row (top), the middle row when
// top/2 is whole and there is a row for it — and the bottom row 0.
func yTicks(rows, top int) linechart.LabelFormatter {
	return func(i int, _ float64) string {
		switch {
		case i == rows-1:
			return fmt.Sprint(top)
		case i == 0:
			return "0"
		case rows >= 4 && rows%2 == 0 && top%2 == 0 && i == rows/2-1:
			return fmt.Sprint(top / 2)
		}
		return ""
	}
}

// columnGrid draws the columns with an ntcharts bar chart (one stacked bar
// a column, no axis, a fixed maximum of top) and renders its canvas row by
// row: retries at a column's foot in their own glyph (never by colour
// alone), empty outage cells dotted, columns not yet reached blank. Cells
// of one style are rendered as one run.
func columnGrid(st Styles, s *state, rung string, cols []callCol, tc timeCols, rows, top int) []string {
	style := st.rungStyle(rung)
	bc := columnBars(tc.gw, rows, top)
	// A retry fills at least one whole cell, so one retry shows; the
	// retries' segment is pushed in whole cells, so no cell is split
	// between the two series.
	retryCells := func(c callCol) int {
		if c.r == 0 {
			return 0
		}
		return max(c.r*rows/top, 1)
	}
	data := make([]barchart.BarData, len(cols))
	for i, c := range cols {
		if !c.live {
			continue
		}
		rv := float64(retryCells(c)) * float64(top) / float64(rows)
		data[i].Values = []barchart.BarValue{
			{Name: "retries", Value: rv, Style: st.Alert},
			{Name: "calls", Value: max(float64(c.v)-rv, 0), Style: style},
		}
	}
	bc.PushAll(data)
	bc.Draw()
	styles := [...]lipgloss.Style{st.Outage, st.Alert, style}
	out := make([]string, rows)
	for y := 0; y < rows; y++ {
		var sb, cells strings.Builder
		cur := -1 // index into styles; -1 for unstyled cells
		flush := func() {
			if cells.Len() == 0 {
				return
			}
			if cur < 0 {
				sb.WriteString(cells.String())
			} else {
				sb.WriteString(styles[cur].Render(cells.String()))
			}
			cells.Reset()
		}
		put := func(k int, g rune) {
			if k != cur {
				flush()
			}
			cur = k
			cells.WriteRune(g)
		}
		below := rows - 1 - y // whole cells under this row
		for x, c := range cols {
			g := bc.Canvas.Cell(canvas.Point{X: x, Y: y}).Rune
			switch {
			case !c.live:
				put(-1, ' ')
			case g == 0 || g == ' ':
				if c.out {
					put(0, '·')
				} else {
					put(-1, ' ')
				}
			case below < retryCells(c):
				put(1, '░')
			default:
				put(2, g)
			}
		}
		flush()
		out[y] = sb.String()
	}
	return out
}

// timeAxis is the row under the time charts: the gutter's corner, then
// axisLabels.
func timeAxis(st Styles, tc timeCols) string {
	return st.Dim.Render(strings.Repeat(" ", gutter-1) + "└" + strings.TrimRight(axisLabels(tc.axis, tc.gw), " "))
}

// axisLabels is the one time axis formatter of every pane (the Emails
// pane's column head, the breaker strips, the Calls charts): gw cells of
// ticks at round seconds, so every pane of a drill reads the same extent.
// Every label sits at its tick: a tick's number starts in the cell its
// second falls in (the cell a bar puts it in), the axis's end ends in the
// last cell, and the unit follows the first label ("0 s   20   40   80").
// The step is the smallest at which every tick's label fits with a space
// before the next, preferring one that divides the extent; no tick between
// two labelled ones is ever left out.
func axisLabels(axis time.Duration, gw int) string {
	if gw <= 0 {
		return ""
	}
	secs := max(int(axis/time.Second), 1)
	var labs []axisLabel
	for _, divides := range []bool{true, false} {
		for _, step := range axisSteps {
			if (divides && secs%step != 0) || secs/step*minTickCells > gw {
				continue // it does not divide, or packs the ticks too tight to read
			}
			if l, ok := axisTicks(secs, step, gw); ok {
				labs = l
				break
			}
		}
		if labs != nil {
			break
		}
	}
	if labs == nil {
		// Too narrow for any step: the start and the end alone, or the end.
		if l, ok := axisTicks(secs, secs, gw); ok {
			labs = l
		} else {
			labs = []axisLabel{{at: max(gw-len(fmt.Sprint(secs)), 0), text: fmt.Sprint(secs)}}
		}
	}
	cells := []rune(strings.Repeat(" ", gw))
	for _, l := range labs {
		for i, r := range l.text {
			if l.at+i >= 0 && l.at+i < gw {
				cells[l.at+i] = r
			}
		}
	}
	return string(cells)
}

// minTickCells is the least room a tick takes on an axis, label and gap.
const minTickCells = 6

// axisSteps are the tick steps axisLabels tries, in seconds.
var axisSteps = []int{5, 10, 15, 20, 30, 60, 120, 300, 600, 1200, 1800, 3600}

// An axisLabel is a tick's text and the cell it starts in.
type axisLabel struct {
	at   int
	text string
}

// axisTicks lays out the ticks of an axis of secs seconds over gw cells
// every step seconds: 0 with the unit, each multiple of step before the
// end, and the end ending in the last cell. ok is false when two labels
// would touch.
func axisTicks(secs, step, gw int) ([]axisLabel, bool) {
	labs := []axisLabel{{at: 0, text: "0 s"}}
	for t := step; t < secs; t += step {
		labs = append(labs, axisLabel{at: t * gw / secs, text: fmt.Sprint(t)})
	}
	end := fmt.Sprint(secs)
	labs = append(labs, axisLabel{at: gw - len(end), text: end})
	for i := 1; i < len(labs); i++ {
		if labs[i].at < labs[i-1].at+len(labs[i-1].text)+1 {
			return nil, false
		}
	}
	return labs, true
}

// columnBars is an ntcharts bar chart of w one-cell columns side by side
// in rows lines, without an axis, on a fixed scale from 0 to top: the
// shape of every per-column chart on the shared time axis.
func columnBars(w, rows, top int) barchart.Model {
	return barchart.New(w, rows,
		barchart.WithNoAxis(),
		barchart.WithNoAutoMaxValue(),
		barchart.WithMaxValue(float64(top)),
		barchart.WithNoAutoBarWidth(),
		barchart.WithBarWidth(1),
		barchart.WithBarGap(0))
}

// sparkline draws a per-second series on the shared columns as a one-row
// ntcharts bar chart on a scale whose full cell is peak, each column the
// largest second of its slice.
func sparkline(style lipgloss.Style, series []int, peak int, tc timeCols, now time.Duration) string {
	bc := columnBars(tc.gw, 1, max(peak, 1))
	data := make([]barchart.BarData, tc.gw)
	for c := range data {
		if tc.at(c) > now {
			continue
		}
		lo, hi := tc.seconds(c)
		m := 0
		for sec := lo; sec < hi && sec < len(series); sec++ {
			m = max(m, series[sec])
		}
		data[c].Values = []barchart.BarValue{{Value: float64(min(m, peak)), Style: style}}
	}
	bc.PushAll(data)
	bc.Draw()
	var sb strings.Builder
	for c := 0; c < tc.gw; c++ {
		g := bc.Canvas.Cell(canvas.Point{X: c, Y: 0}).Rune
		if g == 0 {
			g = ' '
		}
		sb.WriteRune(g)
	}
	return style.Render(sb.String())
}
