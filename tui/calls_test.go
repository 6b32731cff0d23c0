package tui

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// The Calls pane's charts, breaker strips and time axis share their
// columns, y ticks are round, and retries are a second series (a glyph of
// their own), not digits.
func TestCallsChartAxes(t *testing.T) {
	m := replayModel(t, 999*time.Second, 160, 48)
	st, s := m.st, m.s
	for _, w := range []int{50, 68, 120} {
		lines := renderCalls(st, s, w, 30, m.now)
		var chart, strip, axis []string
		for _, l := range lines {
			l = ansi.Strip(l)
			switch {
			case strings.Contains(l, "┤") || strings.Contains(l, "│"):
				chart = append(chart, l)
			case strings.HasPrefix(l, "prim "):
				strip = append(strip, l)
			case strings.Contains(l, "└"):
				axis = append(axis, l)
			}
		}
		if len(chart) == 0 || len(strip) != 1 || len(axis) != 1 {
			t.Fatalf("width %d: %d chart rows, %d strips, %d axes:\n%s", w, len(chart), len(strip), len(axis), strings.Join(lines, "\n"))
		}
		for _, l := range chart {
			if n := ansi.StringWidth(l); n != w {
				t.Errorf("width %d: chart row is %d cells: %q", w, n, l)
			}
			if lab := strings.TrimSpace(strings.SplitN(l, "┤", 2)[0]); strings.Contains(l, "┤") {
				v, err := strconv.Atoi(lab)
				if err != nil || v != 0 && !isRound(v) {
					t.Errorf("width %d: y tick %q is not round", w, lab)
				}
			}
			if regexp.MustCompile(`[│┤].*[0-9]`).MatchString(l) {
				t.Errorf("width %d: digits inside the chart: %q", w, l)
			}
		}
		if !strings.Contains(strings.Join(chart, ""), "░") {
			t.Errorf("width %d: no retries series in a run with 75 retries", w)
		}
		// The strip starts where the chart's columns start.
		if ansi.StringWidth(strip[0]) > w || strings.Index(axis[0], "└") != gutter-1 {
			t.Errorf("width %d: strip %q or axis %q off the chart's columns", w, strip[0], axis[0])
		}
		for _, tick := range regexp.MustCompile(`\d+`).FindAllString(axis[0], -1) {
			if v, _ := strconv.Atoi(tick); v%5 != 0 {
				t.Errorf("width %d: time tick %s is not round", w, tick)
			}
		}
		if !strings.HasSuffix(strings.TrimSpace(axis[0]), " s") {
			t.Errorf("width %d: the time axis has no unit: %q", w, axis[0])
		}
	}
}

func isRound(v int) bool {
	for v >= 10 && v%10 == 0 {
		v /= 10
	}
	return v == 1 || v == 2 || v == 5
}
