package tui

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/linechart"
	"github.com/NimbleMarkets/ntcharts/linechart/timeserieslinechart"
	"github.com/charmbracelet/lipgloss"
)

// The waits chart sits under the Calls charts, on the same columns: for
// each slice of the time axis, the longest wait of the emails sent in it
// (an email still waiting counts its wait so far), in seconds. It is an
// ntcharts time-series chart drawn in braille, its y axis from 0 to a
// round top with the ticks a label formatter gives.

// bucketWaits is the longest wait (s) of the emails sent in each column's
// slice, bucketed before it is pushed to the chart; -1 for a column in
// which no email was sent.
func bucketWaits(s *state, tc timeCols, now time.Duration) []float64 {
	cols := make([]float64, tc.gw)
	for c := range cols {
		cols[c] = -1
	}
	if tc.axis <= 0 {
		return cols
	}
	for i, n := 0, s.rowCount(); i < n; i++ {
		r := s.rowAt(i)
		c := int(int64(r.Sent) * int64(tc.gw) / int64(tc.axis))
		if c < 0 || c >= tc.gw {
			continue
		}
		cols[c] = max(cols[c], r.WaitAt(now).Seconds())
	}
	return cols
}

// waitTicks is the label formatter of a chart of rows rows whose top row
// stands for top and bottom row for 0 (ntcharts scales a value of top to
// the top row): 0, top, and top/2 on the middle row when it is whole and
// there is such a row; every label padded to the gutter.
func waitTicks(rows, top int) linechart.LabelFormatter {
	return func(i int, _ float64) string {
		lab := ""
		switch {
		case i == 0:
			lab = "0"
		case i == rows-1:
			lab = fmt.Sprint(top)
		case (rows-1)%2 == 0 && top%2 == 0 && i == (rows-1)/2:
			lab = fmt.Sprint(top / 2)
		}
		return fmt.Sprintf("%*s", gutter-1, lab)
	}
}

// waitsChart draws the waits chart in rows lines of gutter+tc.gw cells.
func waitsChart(st Styles, s *state, tc timeCols, rows int, now time.Duration) []string {
	return seriesChart(st, st.Backup, bucketWaits(s, tc, now), tc, rows, now)
}

// seriesChart draws a series already bucketed to the chart's columns (one
// value a column, -1 for none) as an ntcharts time-series chart in braille,
// in rows lines of gutter+tc.gw cells: the y axis from 0 to a round top
// with round ticks in the gutter, columns not yet reached empty. Any chart
// of a per-column figure on the shared time axis draws through it.
func seriesChart(st Styles, style lipgloss.Style, cols []float64, tc timeCols, rows int, now time.Duration) []string {
	rows = max(rows, 2)
	peak := 1.0
	for _, v := range cols {
		peak = max(peak, v)
	}
	top := niceCeil(int(math.Ceil(peak)))
	origin := time.Unix(0, 0)
	ch := timeserieslinechart.New(gutter+tc.gw, rows,
		timeserieslinechart.WithXYSteps(0, 1),
		timeserieslinechart.WithYLabelFormatter(waitTicks(rows, top)),
		// The x axis is the chart's columns: column c is second c after
		// origin, so each bucket is one point.
		timeserieslinechart.WithTimeRange(origin, origin.Add(time.Duration(max(tc.gw-1, 1))*time.Second)),
		timeserieslinechart.WithYRange(0, float64(top)),
		timeserieslinechart.WithAxesStyles(st.Dim, st.Dim),
		timeserieslinechart.WithStyle(style))
	ch.AutoMinX, ch.AutoMaxX, ch.AutoMinY, ch.AutoMaxY = false, false, false, false
	for c, v := range cols {
		if v >= 0 && tc.at(c) <= now {
			ch.Push(timeserieslinechart.TimePoint{Time: origin.Add(time.Duration(c) * time.Second), Value: v})
		}
	}
	ch.DrawBraille()
	out := make([]string, rows)
	for y := range rows {
		var sb strings.Builder
		lab := ""
		for x := range gutter - 1 {
			if g := ch.Canvas.Cell(canvas.Point{X: x, Y: y}).Rune; g != 0 {
				lab += string(g)
			} else {
				lab += " "
			}
		}
		edge := "│"
		if strings.TrimSpace(lab) != "" {
			edge = "┤"
		}
		sb.WriteString(st.Dim.Render(lab + edge))
		var cells strings.Builder
		for x := range tc.gw {
			g := ch.Canvas.Cell(canvas.Point{X: gutter + x, Y: y}).Rune
			if g == 0 {
				g = ' '
			}
			cells.WriteRune(g)
		}
		sb.WriteString(lipglossRender(style, cells.String()))
		out[y] = sb.String()
	}
	return out
}

// lipglossRender renders text in style, leaving a blank run unstyled.
func lipglossRender(style lipgloss.Style, text string) string {
	if strings.TrimSpace(text) == "" {
		return text
	}
	return style.Render(text)
}
