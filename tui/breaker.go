package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/scoring"
)

// renderBreaker draws the Breaker pane's content for an inner size w×h:
// its lines, and the legend when there is room for it.
func renderBreaker(st Styles, s *state, w, h int, now time.Duration) []string {
	return withLegend(st, s, breakerContent(st, s, w, now, true), h)
}

// breakerContent is the Breaker pane's content without the legend: what
// the breaker bought (the baseline's lines) first, then breakerLines.
func breakerContent(st Styles, s *state, w int, now time.Duration, strips bool) []string {
	return append(s.baseline.breakerLines(st, s, w), breakerLines(st, s, w, now, strips)...)
}

// breakerLines are the Breaker pane's lines at width w: per breaker its
// state in words, opens, the first open's time into the outage, probes and,
// when strips is set, a strip of its state over the shared time axis, then
// the axis (the compact layout's Calls pane, beside the Breaker pane, draws
// them instead).
func breakerLines(st Styles, s *state, w int, now time.Duration, strips bool) []string {
	if len(s.fold.Breakers()) == 0 {
		return append([]string{st.Dim.Render("no breaker in this policy")}, alertLines(st, s, w)...)
	}
	axis := axisFor(s, now)
	tc := timeCols{gw: max(w-gutter, 1), axis: axis}
	var out []string
	for _, name := range s.fold.Breakers() {
		b := s.fold.Breaker(name)
		style, _ := st.breakerGlyph(b.State)
		word := stateWord(b.State)
		if b.State == stateOpen {
			style = st.Alert
		}
		label := name
		if m := s.fold.Model(name); m != "" {
			label += " " + st.Dim.Render(m)
		}
		first := "first open " + format.Dash
		if b.FirstOpen != nil {
			long := "first open " + format.Dur(*b.FirstOpen) + " into outage"
			short := "first open " + format.Dur(*b.FirstOpen)
			if s.summary.OutageBasis == scoring.BasisObserved {
				long += " (observed)"
				short += " (obs.)"
			}
			first = pick(w, long, short)
		}
		segs := []string{label, style.Render(word), fmt.Sprintf("opens %d", b.Opens), first}
		out = append(out, wrapSegments(segs, "  ", w)...)
		if strips {
			out = append(out, st.Dim.Render(fmt.Sprintf("%-*s", gutter, short(name)))+strip(st, b.Changes, tc, now))
		}
		probes := fmt.Sprintf("probes %d: %s ok, %s failed", b.Probes,
			st.Good.Render(fmt.Sprint(b.ProbesOK)), st.Alert.Render(fmt.Sprint(b.ProbesFailed)))
		if n := b.ProbesRunning; n > 0 {
			probes += fmt.Sprintf(", %d running", n)
		}
		out = append(out, probes)
		if name == s.fold.Target() {
			out = append(out, predictedLines(s.summary, w)...)
		}
	}
	if strips {
		out = append(out, timeAxis(st, tc))
	}
	return append(out, alertLines(st, s, w)...)
}

// maxAlertLines bounds the alerts the Breaker pane lists: the latest.
const maxAlertLines = 3

// alertLines are the latest alerts the team's Alertmanager sent, each
// placed against the outage and the breaker's first open by the fold.
func alertLines(st Styles, s *state, w int) []string {
	notes := s.fold.AlertNotes()
	if len(notes) > maxAlertLines {
		notes = notes[len(notes)-maxAlertLines:]
	}
	out := make([]string, 0, len(notes))
	for _, n := range notes {
		for _, l := range wrapSegments([]string{plain.AlertNote(n)}, "", w) {
			out = append(out, st.Alert.Render(l))
		}
	}
	return out
}

// withLegend adds the strips' legend under the Breaker pane's lines when
// they leave room for it in h lines (and the policy has a breaker).
func withLegend(st Styles, s *state, lines []string, h int) []string {
	if len(lines) >= h || len(s.fold.Breakers()) == 0 {
		return lines
	}
	legend := fmt.Sprintf("%s closed  %s OPEN  %s half-open",
		st.Closed.Render("─"), st.Open.Render("█"), st.HalfOpen.Render("▒"))
	return append(lines[:len(lines):len(lines)], st.Dim.Render(legend))
}

// strip draws a breaker's state over time, one cell per slice of the axis,
// up to now.
func strip(st Styles, changes []scoring.BreakerChange, tc timeCols, now time.Duration) string {
	w := tc.gw
	if w <= 0 {
		return ""
	}
	var sb strings.Builder
	prev, k := "", 0
	flush := func() {
		if k == 0 {
			return
		}
		var style lipgloss.Style
		var g rune
		if prev == "" {
			sb.WriteString(strings.Repeat(" ", k))
		} else {
			style, g = st.breakerGlyph(prev)
			sb.WriteString(style.Render(strings.Repeat(string(g), k)))
		}
		k = 0
	}
	ci := 0
	cur := stateClosed
	for c := 0; c < w; c++ {
		t, tEnd := tc.at(c), tc.at(c+1)
		state := ""
		if t <= now {
			// The cell shows the worst state the breaker was in during its slice.
			worst := cur
			for ci < len(changes) && changes[ci].At < tEnd {
				cur = changes[ci].To
				if rank(cur) > rank(worst) {
					worst = cur
				}
				ci++
			}
			if rank(cur) > rank(worst) {
				worst = cur
			}
			state = worst
		}
		if state != prev {
			flush()
			prev = state
		}
		k++
	}
	flush()
	return sb.String()
}

func rank(state string) int {
	switch state {
	case stateOpen:
		return 2
	case stateHalfOpen:
		return 1
	}
	return 0
}

// predictedLines put the breaker's predicted first open (logged before the
// run, see drill predict) beside the measured one: "first open: measured
// 18.4 s, predicted 18.1–18.5 s: inside". Nothing when the run logged no
// prediction; the reason when the arithmetic could not read the outage.
func predictedLines(sum scoring.Summary, w int) []string {
	switch {
	case sum.PredictedNote != "":
		return wrapSegments([]string{"predicted: nothing (" + sum.PredictedNote + ")"}, "", w)
	case sum.PredictedFirstOpenS == nil && !sum.PredictedMayNeverOpen:
		return nil
	}
	var pred *predict.Range
	if r := sum.PredictedFirstOpenS; r != nil {
		pred = (*predict.Range)(r)
	}
	segs := strings.SplitN(plain.Beside(sum.BreakerFirstOpenS, pred), ", ", 2)
	segs[0] = "first open: " + segs[0]
	if sum.PredictedMayNeverOpen {
		segs[len(segs)-1] += " (or never)"
	}
	return wrapSegments(segs, ", ", w)
}
