package tui

import (
	"fmt"
	"strings"
	"time"

	tslc "github.com/NimbleMarkets/ntcharts/linechart/timeserieslinechart"
	"github.com/charmbracelet/lipgloss"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/format"
)

// sparks are the levels of a compact per-second series.
var sparks = []rune(" ▁▂▃▄▅▆▇█")

// callRungs lists the rungs that call a model, in chain order.
func callRungs(s *state) []string {
	var names []string
	seen := map[string]bool{}
	for _, r := range s.fold.Info.Rungs {
		if r.Name == event.ServedCanned || seen[r.Name] {
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

// renderCalls draws the Calls pane's content: the running count of calls to
// the broken model during the outage, then per model its attempts per second
// (an ntcharts time series when there is room, a sparkline when not) with
// its retries, over the shared time axis with the outage window marked.
func renderCalls(st Styles, s *state, w, h int, now time.Duration) []string {
	if w <= 0 || h <= 0 {
		return nil
	}
	target := s.fold.Target()
	tm := s.fold.Model(target)
	if tm != "" {
		tm = " " + tm
	}
	out := []string{st.Bold.Render(fmt.Sprintf("%d calls to broken %s%s during outage", s.fold.CallsToBroken(), target, tm) +
		format.Basis(s.summary))}
	rungs := callRungs(s)
	if len(rungs) == 0 {
		return out
	}
	axis := axisFor(s, now)
	avail := h - len(out)
	if avail/len(rungs) >= 6 {
		legend := avail >= 6*len(rungs)+1
		if legend {
			avail--
		}
		per := avail / len(rungs)
		for i, r := range rungs {
			ch := per - 1
			if i == len(rungs)-1 {
				ch = avail - (len(rungs)-1)*per - 1
			}
			out = append(out, callsLabel(st, s, r))
			out = append(out, callsChart(st, s, r, w, ch, axis, now)...)
		}
		if legend {
			out = append(out, st.Dim.Render(fmt.Sprintf("rty: retries per column · ···: outage · axis 0–%.0f s", axis.Seconds())))
		}
		return out
	}
	// Compact: one sparkline per model and an outage strip, if they fit.
	for _, r := range rungs {
		lab := fmt.Sprintf("%-7s %3d r%-3d", r, sum(s.fold.AttemptsPerSecond(r)), sum(s.fold.RetriesPerSecond(r)))
		sw := w - cellWidth(lab) - 1
		out = append(out, lab+" "+sparkline(st, s.fold.AttemptsPerSecond(r), sw, axis, now))
	}
	if len(out) < h {
		lab := fmt.Sprintf("%-16s", "outage")
		out = append(out, lab+" "+outageStrip(st, s, w-cellWidth(lab)-1, axis, func(c int) time.Duration {
			return time.Duration(int64(axis) * int64(c) / int64(w-cellWidth(lab)-1))
		}))
	}
	return out
}

func cellWidth(s string) int { return lipgloss.Width(s) }

func callsLabel(st Styles, s *state, rung string) string {
	total, retries := sum(s.fold.AttemptsPerSecond(rung)), sum(s.fold.RetriesPerSecond(rung))
	label := rung
	if m := s.fold.Model(rung); m != "" {
		label += " " + m
	}
	style := st.Primary
	if rung != event.ServedPrimary {
		style = st.Backup
	}
	return style.Render(label) + fmt.Sprintf(" attempts/s · %d calls, %d retries", total, retries)
}

func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

// callsChart draws one model's attempts per second as an ntcharts time
// series of h lines (h-1 chart lines and a strip below it marking retries
// with digits and the outage with dots), on the shared axis.
func callsChart(st Styles, s *state, rung string, w, h int, axis, now time.Duration) []string {
	series := s.fold.AttemptsPerSecond(rung)
	peak := 1
	for _, v := range series {
		peak = max(peak, v)
	}
	base := time.Unix(0, 0)
	style := st.Primary
	if rung != event.ServedPrimary {
		style = st.Backup
	}
	ch := h - 1
	c := tslc.New(w, ch,
		tslc.WithTimeRange(base, base.Add(axis)),
		tslc.WithYRange(0, float64(peak)),
		tslc.WithXYSteps(0, 2),
		tslc.WithYLabelFormatter(func(_ int, v float64) string { return fmt.Sprintf("%3.0f", v) }),
		tslc.WithAxesStyles(st.Dim, st.Dim),
		tslc.WithStyle(style),
	)
	last := int(now / time.Second)
	for sec := 0; sec <= last && sec < len(series)+1; sec++ {
		v := 0
		if sec < len(series) {
			v = series[sec]
		}
		c.Push(tslc.TimePoint{Time: base.Add(time.Duration(sec) * time.Second), Value: float64(v)})
	}
	if last >= 0 {
		c.DrawBraille()
	}
	// Shade the outage columns where colour is available.
	gx := c.Origin().X
	if c.YStep() > 0 {
		gx++
	}
	gw := c.GraphWidth()
	colTime := func(i int) time.Duration {
		if gw <= 0 {
			return 0
		}
		return time.Duration(int64(axis) * int64(i) / int64(gw))
	}
	for i := 0; i < gw; i++ {
		if inWindows(s, colTime(i), axis) {
			c.SetColumnBackgroundStyle(base.Add(colTime(i)), st.OutageBg)
		}
	}
	lines := strings.Split(c.View(), "\n")
	// The strip under the chart: retries per column as digits, the outage
	// window as dots, aligned with the graph's columns.
	var sb strings.Builder
	sb.WriteString(fit(st.Dim.Render("rty"), gx))
	retries := s.fold.RetriesPerSecond(rung)
	for i := 0; i < gw; i++ {
		t0, t1 := colTime(i), colTime(i+1)
		n := 0
		for sec := int(t0 / time.Second); sec < len(retries) && time.Duration(sec)*time.Second < t1; sec++ {
			if time.Duration(sec)*time.Second >= t0 {
				n += retries[sec]
			}
		}
		switch {
		case n > 9:
			sb.WriteString(st.Alert.Render("+"))
		case n > 0:
			sb.WriteString(st.Alert.Render(fmt.Sprint(n)))
		case inWindows(s, t0, axis):
			sb.WriteString(st.Outage.Render("·"))
		default:
			sb.WriteString(" ")
		}
	}
	lines = append(lines, sb.String())
	return lines
}

// sparkline draws a per-second series on the shared axis in w cells.
func sparkline(st Styles, series []int, w int, axis, now time.Duration) string {
	if w <= 0 {
		return ""
	}
	peak := 1
	for _, v := range series {
		peak = max(peak, v)
	}
	var sb strings.Builder
	for i := 0; i < w; i++ {
		t0 := time.Duration(int64(axis) * int64(i) / int64(w))
		t1 := time.Duration(int64(axis) * int64(i+1) / int64(w))
		if t0 > now {
			sb.WriteByte(' ')
			continue
		}
		m := 0
		for sec := int(t0 / time.Second); sec < len(series) && time.Duration(sec)*time.Second < t1; sec++ {
			m = max(m, series[sec])
		}
		sb.WriteRune(sparks[(m*(len(sparks)-1)+peak-1)/peak])
	}
	return st.Dim.Render(sb.String())
}

// outageStrip marks outage windows with dots over w cells.
func outageStrip(st Styles, s *state, w int, axis time.Duration, at func(int) time.Duration) string {
	var sb strings.Builder
	for i := 0; i < w; i++ {
		if inWindows(s, at(i), axis) {
			sb.WriteString(st.Outage.Render("▓"))
		} else {
			sb.WriteByte(' ')
		}
	}
	return sb.String()
}
