package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// The waits chart: each column holds the longest wait of the emails sent
// in its slice, the y ticks are round, and the chart shares the Calls
// charts' columns.
func TestWaitsChart(t *testing.T) {
	m := replayModel(t, 999*time.Second, 160, 48)
	s := m.s
	axis := axisFor(s, m.now)
	tc := timeCols{gw: 60, axis: axis}
	cols := bucketWaits(s, tc, m.now)
	longest := 0.0
	for i, n := 0, s.rowCount(); i < n; i++ {
		longest = max(longest, s.rowAt(i).WaitAt(m.now).Seconds())
	}
	peak := -1.0
	for _, v := range cols {
		peak = max(peak, v)
	}
	if peak != longest {
		t.Errorf("the busiest column shows %v s, the longest wait was %v s", peak, longest)
	}
	lines := waitsChart(m.st, s, tc, 6, m.now)
	if len(lines) != 6 {
		t.Fatalf("%d lines, want 6", len(lines))
	}
	var ticks []string
	for _, l := range lines {
		l = ansi.Strip(l)
		if w := ansi.StringWidth(l); w != gutter+tc.gw {
			t.Errorf("line of %d cells, want %d: %q", w, gutter+tc.gw, l)
		}
		if lab := strings.TrimSpace(l[:gutter-1]); lab != "" {
			ticks = append(ticks, lab)
		}
	}
	t.Logf("\n%s", ansi.Strip(strings.Join(lines, "\n")))
	if len(ticks) < 2 || ticks[len(ticks)-1] != "0" || ticks[0] != "20" {
		t.Errorf("ticks %v: want a round top (20 s for waits up to %.1f s) down to 0", ticks, longest)
	}
}
