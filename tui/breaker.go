package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
)

// renderBreaker draws the Breaker pane's content: per breaker its state in
// words, opens, the first open's time into the outage, probes and a strip of
// its state over the shared time axis.
func renderBreaker(st Styles, s *state, w, h int, now time.Duration) []string {
	if len(s.order) == 0 {
		return []string{st.Dim.Render("no breaker in this policy")}
	}
	axis := axisFor(s, now)
	var out []string
	for _, name := range s.order {
		b := s.breakers[name]
		style, _ := st.breakerGlyph(b.state)
		word := stateWord(b.state)
		if b.state == stateOpen {
			style = st.Alert
		}
		label := name
		if m := s.models[name]; m != "" {
			label += " " + st.Dim.Render(m)
		}
		tally := s.fold.Breaker(name)
		first := "first open —"
		if tally.FirstOpen != nil {
			first = fmt.Sprintf("first open %.1f s into outage", tally.FirstOpen.Seconds())
		}
		segs := []string{label, style.Render(word), fmt.Sprintf("opens %d", tally.Opens), first}
		out = append(out, wrapSegments(segs, "  ", w)...)
		out = append(out, strip(st, b, w, axis, now))
		probes := fmt.Sprintf("probes %d: %s ok, %s failed", b.probes,
			st.Good.Render(fmt.Sprint(b.probeOK)), st.Alert.Render(fmt.Sprint(b.probeFail)))
		if n := len(b.pending); n > 0 {
			probes += fmt.Sprintf(", %d running", n)
		}
		out = append(out, probes)
	}
	legend := fmt.Sprintf("%s closed  %s OPEN  %s half-open   0–%.0fs",
		st.Closed.Render("─"), st.Open.Render("█"), st.HalfOpen.Render("▒"), axis.Seconds())
	if len(out) < h {
		out = append(out, st.Dim.Render(legend))
	}
	return out
}

// strip draws a breaker's state over time, one cell per slice of the axis,
// up to now.
func strip(st Styles, b *breakerTrack, w int, axis, now time.Duration) string {
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
		t := time.Duration(int64(axis) * int64(c) / int64(w))
		tEnd := time.Duration(int64(axis) * int64(c+1) / int64(w))
		state := ""
		if t <= now {
			// The cell shows the worst state the breaker was in during its slice.
			worst := cur
			for ci < len(b.changes) && b.changes[ci].at < tEnd {
				cur = b.changes[ci].to
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
