package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal/journaltest"
)

// sweepLogs are three settings: a run without a breaker, one with, and one
// not started yet.
func sweepLogs(t *testing.T) (SweepSource, []*event.Log) {
	t.Helper()
	var logs []*event.Log
	for _, o := range []journaltest.Options{
		{Emails: 30, From: 3, To: 10, Seed: 5},
		{Emails: 30, From: 3, To: 10, Seed: 5, Breaker: true},
	} {
		l := event.NewLog(time.Unix(0, 0))
		for _, e := range journaltest.Run(o) {
			l.AppendRecorded(e)
		}
		logs = append(logs, l)
	}
	src := SweepSource{
		Labels: []string{"--trip-failures 0", "--trip-failures 5", "--trip-failures 9"},
		Logs: func(row int) []*event.Log {
			if row < len(logs) {
				return logs[row : row+1]
			}
			return nil
		},
	}
	return src, logs
}

func asciiRenderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	return r
}

func sweepKey(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func TestSweepDashboardRows(t *testing.T) {
	src, logs := sweepLogs(t)
	m := newSweepModel(src, time.Second, sweepState{}, asciiRenderer())
	view := m.View()
	for _, want := range []string{"3 settings, 2 runs started, 60/60 emails answered", "#  --trip-failures  progress", "    2  5  ", "waiting", "30/30"} {
		if !strings.Contains(view, want) {
			t.Errorf("view has no %q:\n%s", want, view)
		}
	}
	for i, l := range logs {
		if m.stats[i]["answered"].Median != 30 {
			t.Errorf("row %d: answered %v (log of %d events)", i, m.stats[i]["answered"], l.Len())
		}
	}
	// s: sort by p95 wait, best first; the row not started goes last.
	m.Update(sweepKey("s"))
	if m.order[2] != 2 {
		t.Errorf("sorted by p95: order %v, the row without runs should be last", m.order)
	}
	p0, p1 := m.stats[0]["p95_wait_outage_s"].Median, m.stats[1]["p95_wait_outage_s"].Median
	if (p0 <= p1) != (m.order[0] == 0) {
		t.Errorf("sorted by p95 (%v, %v): order %v", p0, p1, m.order)
	}
	if !strings.Contains(m.View(), "sorted by p95 wait, best first") {
		t.Errorf("view:\n%s", m.View())
	}
	m.Update(sweepKey("r"))
	if !strings.Contains(m.View(), "worst first") {
		t.Error("r does not reverse")
	}
	// The selection follows its row through a re-sort; enter opens it.
	m.Update(sweepKey("s"))
	m.Update(sweepKey("s"))
	m.Update(sweepKey("s"))
	m.Update(sweepKey("s")) // back to grid order, reversed: rows 3, 2, 1
	if m.order[0] != 2 {
		t.Fatalf("reverse grid order: %v", m.order)
	}
	m.sel = 0
	if _, cmd := m.Update(sweepKey("enter")); cmd != nil || m.open != -1 {
		t.Error("enter on a setting with no run started opens something")
	}
	m.Update(sweepKey("down"))
	_, cmd := m.Update(sweepKey("enter"))
	if m.open != 1 || cmd == nil {
		t.Errorf("enter on row 2: open %d", m.open)
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("enter does not leave the sweep view for the run's dashboard")
	}
}

func TestSweepDashboardFillsIn(t *testing.T) {
	l := event.NewLog(time.Unix(0, 0))
	evs := journaltest.Run(journaltest.Options{Emails: 10, From: 1, To: 3})
	src := SweepSource{Labels: []string{"a", "b"}, Logs: func(row int) []*event.Log {
		if row == 0 {
			return []*event.Log{l}
		}
		return nil
	}}
	m := newSweepModel(src, time.Second, sweepState{}, asciiRenderer())
	if !strings.Contains(m.View(), "0/0 emails answered") {
		t.Errorf("empty log:\n%s", m.View())
	}
	for _, e := range evs {
		l.AppendRecorded(e)
	}
	m.Update(sweepTick{})
	if !strings.Contains(m.View(), "10/10 emails answered") {
		t.Errorf("after a tick:\n%s", m.View())
	}
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 10})
	for line := range strings.SplitSeq(m.View(), "\n") {
		if lipgloss.Width(line) > 40 && strings.HasPrefix(line, "  ") {
			t.Errorf("row wider than the terminal: %q", line)
		}
	}
}

// The settings that tell rows apart come first, a column per flag, so six
// rows differing only in their last flag never read the same at 80 or 120
// columns; each row says whether it is on the front.
func TestSweepDashboardSettingsFirst(t *testing.T) {
	src, _ := sweepLogs(t)
	var labels []string
	for _, trip := range []string{"count", "slow", "count,slow", "count,in-flight", "rate", "rate,slow"} {
		labels = append(labels, "--primary-timeout 2s --primary-retries 2 --backup-timeout 5s --cooldown 10s --trip "+trip)
	}
	logs := src.Logs
	src.Labels = labels
	src.Logs = func(row int) []*event.Log { return logs(row % 2) }
	m := newSweepModel(src, time.Second, sweepState{}, asciiRenderer())
	for _, w := range []int{80, 120} {
		m.Update(tea.WindowSizeMsg{Width: w, Height: 30})
		seen := map[string]bool{}
		for _, l := range strings.Split(m.View(), "\n") {
			if lipgloss.Width(l) > w {
				t.Errorf("width %d: line of %d cells: %q", w, lipgloss.Width(l), l)
			}
			f := strings.Fields(strings.TrimPrefix(l, ">"))
			if len(f) < 2 || f[0] == "#" || strings.Trim(f[0], "0123456789") != "" {
				continue
			}
			row := f[1] // the first setting column
			if seen[row] {
				t.Errorf("width %d: two rows read %q", w, row)
			}
			seen[row] = true
		}
		if len(seen) != 6 {
			t.Errorf("width %d: %d distinct rows, want 6:\n%s", w, len(seen), m.View())
		}
	}
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 30})
	if v := m.View(); !strings.Contains(v, "trade-off") || strings.Count(v, " front") < 2 {
		t.Errorf("no front column:\n%s", v)
	}
}

// After sorting, enter opens the row marked on screen, and at 80×12 the
// frame fits the terminal (no line wraps, so no row scrolls off the top).
func TestSweepEnterOpensMarkedRow(t *testing.T) {
	src, _ := sweepLogs(t)
	m := newSweepModel(src, time.Second, sweepState{}, asciiRenderer())
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 12})
	for range 3 {
		m.Update(sweepKey("s")) // calls
	}
	m.Update(sweepKey("g"))
	m.Update(sweepKey("down"))
	marked := ""
	lines := strings.Split(m.View(), "\n")
	if len(lines) > 12 {
		t.Errorf("%d lines on a terminal of 12:\n%s", len(lines), m.View())
	}
	for _, l := range lines {
		if lipgloss.Width(l) > 80 {
			t.Errorf("line of %d cells wraps on a terminal of 80: %q", lipgloss.Width(l), l)
		}
		if strings.HasPrefix(l, ">") {
			marked = strings.Fields(l[1:])[0]
		}
	}
	m.Update(sweepKey("enter"))
	if fmt.Sprint(m.open+1) != marked {
		t.Errorf("enter opened row %d, the marked row is #%s:\n%s", m.open+1, marked, m.View())
	}
}

// TestSweepDashboardFrontInsideSpread: two settings whose medians differ
// by less than their repeats' spread (setting 2 is setting 1's runs with
// its better run repeated, so its medians are better on every figure) are
// both on the dashboard's front, as drill sweep's table and the report
// mark them.
func TestSweepDashboardFrontInsideSpread(t *testing.T) {
	logOf := func(seed uint64) *event.Log {
		l := event.NewLog(time.Unix(0, 0))
		for _, e := range journaltest.Run(journaltest.Options{Emails: 40, From: 3, To: 12, Breaker: true, Seed: seed}) {
			l.AppendRecorded(e)
		}
		return l
	}
	rows := [][]*event.Log{{logOf(6), logOf(8)}, {logOf(8), logOf(6), logOf(8)}}
	src := SweepSource{Labels: []string{"--trip-failures 5", "--trip-failures 6"}, Logs: func(row int) []*event.Log { return rows[row] }}
	m := newSweepModel(src, time.Second, sweepState{}, asciiRenderer())
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 20})
	a, b := m.stats[0], m.stats[1]
	if b["p95_wait_outage_s"].Median >= a["p95_wait_outage_s"].Median || b["calls_to_broken_outage"].Median >= a["calls_to_broken_outage"].Median {
		t.Fatalf("setting 2's medians are not better: %+v vs %+v", b, a)
	}
	if m.dom[0] || m.dom[1] {
		t.Errorf("dominated %v %v: a gap inside the repeats' spread makes no front", m.dom[0], m.dom[1])
	}
	if v := m.View(); strings.Contains(v, "  dominated") || strings.Count(v, "  front") != 2 {
		t.Errorf("want both rows on the front:\n%s", v)
	}
}

// TestSweepDashboard80Columns: the sweep of the brief (two outages × three
// timeouts × two trip counts) at 80×24 shows the figures a user sorts by,
// the sorted column is always on screen (progress scrolls into view), the
// shortened setting heads are spelt out, and ? shows the key help.
func TestSweepDashboard80Columns(t *testing.T) {
	src, _ := sweepLogs(t)
	var labels []string
	for _, o := range []string{"busy", "hang"} {
		for _, pt := range []string{"1s", "2s", "5s"} {
			for _, tf := range []string{"3", "5"} {
				labels = append(labels, "--outage "+o+" --primary-timeout "+pt+" --trip-failures "+tf)
			}
		}
	}
	logs := src.Logs
	src.Labels = labels
	src.Logs = func(row int) []*event.Log { return logs(row % 2) }
	m := newSweepModel(src, time.Second, sweepState{}, asciiRenderer())
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	head := func() string {
		for _, l := range strings.Split(m.View(), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "#") {
				return l
			}
		}
		t.Fatalf("no head:\n%s", m.View())
		return ""
	}
	check := func() {
		t.Helper()
		v := m.View()
		lines := strings.Split(v, "\n")
		if len(lines) > 24 {
			t.Errorf("%d lines on a terminal of 24", len(lines))
		}
		for _, l := range lines {
			if lipgloss.Width(l) > 80 {
				t.Errorf("line of %d cells: %q", lipgloss.Width(l), l)
			}
		}
	}
	check()
	for _, want := range []string{"p95 wait", "all 4 right", "calls", "P/B/C/E"} {
		if !strings.Contains(head(), want) {
			t.Errorf("80 columns: no %q column: %q\n%s", want, head(), m.View())
		}
	}
	if !strings.Contains(m.View(), "--primary-timeout") {
		t.Errorf("a shortened setting head is not spelt out:\n%s", m.View())
	}
	for range len(sweepSortKeys) {
		m.Update(sweepKey("s"))
		check()
		k := sweepSortKeys[m.sortBy]
		if k.figure != "" && !strings.Contains(head(), k.name) {
			t.Errorf("sorted by %s, which is off screen: %q", k.name, head())
		}
	}
	m.Update(sweepKey("?"))
	if v := m.View(); !strings.Contains(v, "Keys:") || !strings.Contains(v, "s: sort by the next column") {
		t.Errorf("? shows no help:\n%s", v)
	}
	check()
	if _, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEsc}); cmd != nil || strings.Contains(m.View(), "Keys:") {
		t.Error("esc does not just close the help")
	}
}

// TestSweepEmptyTableKeys: on a table with no rows yet, moving to the end
// or down and pressing enter opens nothing and does not panic (the row
// index went to -1).
func TestSweepEmptyTableKeys(t *testing.T) {
	m := newSweepModel(SweepSource{Logs: func(int) []*event.Log { return nil }}, 0, sweepState{}, asciiRenderer())
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, k := range []string{"G", "enter", "j", "enter", "k", "g", "enter"} {
		m.Update(keyMsg(k))
		_ = m.View()
	}
	if m.open >= 0 || m.sel != 0 {
		t.Errorf("open %d, selected %d: want nothing opened, row 0", m.open, m.sel)
	}
}
