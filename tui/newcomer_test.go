package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/drill-dev/drill/event"
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

// TestAxisLabelsSitAtTheirTicks: every number on a time axis starts in
// the cell its second falls in (the end's ends in the last cell), and the
// ticks are evenly spaced: none between two labelled ones is left out
// (the Emails pane at 120×40 read `0 20 40   80 s`, 60 dropped and 80
// four cells early).
func TestAxisLabelsSitAtTheirTicks(t *testing.T) {
	for _, secs := range []int{20, 45, 60, 61, 80, 120, 300, 1000} {
		for gw := 6; gw <= 120; gw++ {
			axis := axisLabels(time.Duration(secs)*time.Second, gw)
			if n := len([]rune(axis)); n != gw {
				t.Fatalf("%d s over %d cells: %d cells wide", secs, gw, n)
			}
			var ticks []int
			for _, f := range axisNumbers(axis) {
				if f.n == secs {
					if f.end != gw-1 {
						t.Errorf("%d s over %d cells %q: the end ends in cell %d, want %d", secs, gw, axis, f.end, gw-1)
					}
					continue
				}
				if want := f.n * gw / secs; f.at != want {
					t.Errorf("%d s over %d cells %q: %d starts in cell %d, want %d", secs, gw, axis, f.n, f.at, want)
				}
				ticks = append(ticks, f.n)
			}
			for i := 2; i < len(ticks); i++ {
				if ticks[i]-ticks[i-1] != ticks[1]-ticks[0] {
					t.Errorf("%d s over %d cells %q: ticks %v unevenly spaced", secs, gw, axis, ticks)
					break
				}
			}
		}
	}
	if got := strings.TrimRight(axisLabels(80*time.Second, 28), " "); got != "0 s    20     40     60   80" {
		t.Errorf("80 s over 28 cells (the Emails pane at 120×40) = %q", got)
	}
}

type axisNumber struct{ n, at, end int }

// axisNumbers are the numbers on an axis row with the cells they span.
func axisNumbers(axis string) []axisNumber {
	var out []axisNumber
	rs := []rune(axis)
	for i := 0; i < len(rs); i++ {
		if rs[i] < '0' || rs[i] > '9' {
			continue
		}
		j, n := i, 0
		for ; j < len(rs) && rs[j] >= '0' && rs[j] <= '9'; j++ {
			n = n*10 + int(rs[j]-'0')
		}
		out = append(out, axisNumber{n: n, at: i, end: j - 1})
		i = j
	}
	return out
}

// TestSweepTradeOffOnScreen: the sweep of examples/sweep.yaml (two
// policies × four timeouts × three retry counts × two trip counts) shows
// the trade-off column (front or dominated) beside the figures a user
// sorts by at 120 and 100 columns, without scrolling.
func TestSweepTradeOffOnScreen(t *testing.T) {
	src, _ := sweepLogs(t)
	var labels []string
	for _, pol := range []string{"breaker", "fail-fast"} {
		for _, pt := range []string{"1s", "2s", "3s", "5s"} {
			for _, pr := range []string{"0", "1", "2"} {
				for _, tf := range []string{"3", "5"} {
					labels = append(labels, "--policy "+pol+" --primary-timeout "+pt+" --primary-retries "+pr+" --trip-failures "+tf)
				}
			}
		}
	}
	logs := src.Logs
	src.Labels = labels
	src.Logs = func(row int) []*event.Log { return logs(row % 2) }
	for _, w := range []int{120, 100} {
		m := newSweepModel(src, time.Second, sweepState{}, asciiRenderer())
		m.Update(tea.WindowSizeMsg{Width: w, Height: 30})
		var head string
		for _, l := range strings.Split(m.View(), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "#") {
				head = l
			}
			if lipgloss.Width(l) > w {
				t.Errorf("%d columns: a line of %d cells", w, lipgloss.Width(l))
			}
		}
		for _, want := range []string{"p95 wait", "all 4 right", "calls", "trade-off"} {
			if !strings.Contains(head, want) {
				t.Errorf("%d columns: no %q column on screen: %q\n%s", w, want, head, m.View())
			}
		}
	}
}

// TestFilterPromptListsEveryFilter: the `/` prompt lists every filter word
// the Emails pane accepts (primary and waiting included) at 120 and at 80
// columns, and a filter it does not know names them all.
func TestFilterPromptListsEveryFilter(t *testing.T) {
	for _, w := range []int{120, 80} {
		m := modelAt(t, 120, 30*time.Second, w, 40, &fakeControls{})
		m.Update(keyMsg("/"))
		foot := ansi.Strip(strings.Join(m.footer(w), "\n"))
		for word := range filterWords {
			if !strings.Contains(foot, word) {
				t.Errorf("%d columns: the filter prompt omits %q: %q", w, word, foot)
			}
		}
	}
	m := modelAt(t, 120, 30*time.Second, 120, 40, &fakeControls{})
	m.Update(keyMsg("/"))
	for _, r := range "nope" {
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	m.Update(keyMsg("enter"))
	for word := range filterWords {
		if !strings.Contains(m.flash, word) {
			t.Errorf("the unknown filter's message omits %q: %q", word, m.flash)
		}
	}
}
