package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// TestTabCyclesOnlyDrawnPanes: at 80×24 the layout hides the Quality
// pane; tab and shift+tab visit only the panes on screen, and every pane
// that is drawn is reached.
func TestTabCyclesOnlyDrawnPanes(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {80, 40}, {120, 40}} {
		m := modelAt(t, 120, 30*time.Second, size[0], size[1], &fakeControls{})
		drawn := map[int]bool{}
		for p := range paneCount {
			if r := m.panel(p).rect; r.w > 0 && r.h > 0 {
				drawn[p] = true
			}
		}
		for _, k := range []string{"tab", "shift+tab"} {
			seen := map[int]bool{}
			for range 2 * paneCount {
				m.Update(keyMsg(k))
				if !drawn[m.focus] {
					t.Fatalf("%d×%d: %s focused %s, which is not drawn", size[0], size[1], k, paneTitles[m.focus])
				}
				seen[m.focus] = true
			}
			if len(seen) != len(drawn) {
				t.Errorf("%d×%d: %s reached %d panes, %d are drawn", size[0], size[1], k, len(seen), len(drawn))
			}
		}
		if size == [2]int{80, 24} && drawn[paneQuality] {
			t.Errorf("80×24 draws the Quality pane; the test expects the compact layout")
		}
	}
}

// TestWaitFigureAt80x24: a wait figure (the p95 wait in the outage) is on
// screen at 80×24, where the Quality pane that shows it is hidden.
func TestWaitFigureAt80x24(t *testing.T) {
	m := modelAt(t, 120, 30*time.Second, 80, 24, &fakeControls{})
	frame := ansi.Strip(m.frame())
	if !strings.Contains(frame, "p95 wait") {
		t.Errorf("no wait figure at 80×24:\n%s", frame)
	}
}
