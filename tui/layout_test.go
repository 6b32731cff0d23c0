package tui

import (
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/drill-dev/drill/event"
)

// predictedModel is a synthetic drill that logged a prediction, at 30 s.
func predictedModel(t *testing.T, w, h int) *Model {
	t.Helper()
	evs := synthRun(120)
	info := *evs[0].Run
	info.Predicted = &event.Predicted{FirstOpenS: &[2]float64{4.2, 4.8}}
	evs[0].Run = &info
	m := newModel(asciiStyles(), &staticFeed{evs: until(evs, 30*time.Second), now: 30 * time.Second}, &fakeControls{}, 0, nil)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.Update(tickMsg{T: time.Unix(0, 0)})
	return m
}

// At 80×24 the Emails pane lists at least eight emails, and the Breaker
// pane shows its prediction whole, not behind "…N more".
func TestLayout80x24EmailsAndPrediction(t *testing.T) {
	m := predictedModel(t, 80, 24)
	v := m.View()
	checkFrame(t, v, 80, 24)
	if m.ep.vis < 8 {
		t.Errorf("the Emails pane shows %d rows at 80×24, want at least 8:\n%s", m.ep.vis, v)
	}
	if strings.Contains(v, "more (tab here") {
		t.Errorf("a pane hides lines behind \"…N more\" at 80×24:\n%s", v)
	}
	if !strings.Contains(v, "predicted 4.2–4.8 s") {
		t.Errorf("the breaker's prediction is not on screen at 80×24:\n%s", v)
	}
	// The Quality pane gives way; its headline figure stays in the header.
	if !strings.Contains(strings.Join(m.header.lines, "\n"), "all 4 right ") {
		t.Errorf("the header lacks all 4 right when the Quality pane is hidden:\n%s", v)
	}
}

// The policy line is wrapped or shortened, never cut: the backup's settings
// show at 80 and 120 columns, and no header line ends in an ellipsis.
func TestPolicyLineNotCut(t *testing.T) {
	for _, w := range []int{80, 120, 160} {
		m := modelAt(t, 120, 30*time.Second, w, 40, nil)
		head := renderHeader(m.st, m.s, w, m.now, "")
		joined := ansi.Strip(strings.Join(head, "\n"))
		if !strings.Contains(joined, "backup gpt-5.4-nano (5 s, 2 r") || !strings.Contains(joined, "canned") {
			t.Errorf("width %d: the backup's settings are not in the header:\n%s", w, joined)
		}
		for _, l := range head {
			if strings.Contains(l, "…") {
				t.Errorf("width %d: a header line is cut: %q", w, ansi.Strip(l))
			}
			if n := ansi.StringWidth(l); n != w {
				t.Errorf("width %d: a header line is %d cells", w, n)
			}
		}
	}
}

// Segments wider than the line are wrapped at their spaces, never inside a
// word, and a line never exceeds the width.
func TestWrapSegmentsKeepsWords(t *testing.T) {
	segs := []string{"outage wait median 1.5 s, p95 4.5 s", "observed failures, primary gpt-5.4-mini 15.0–37.7 s, 30 failed calls, 30 calls in window", "wall 60.7 s"}
	lines := wrapSegments(segs, " · ", 30)
	words := map[string]bool{}
	for _, s := range segs {
		for _, w := range strings.Fields(s) {
			words[w] = true
		}
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 30 {
			t.Errorf("line of %d cells: %q", ansi.StringWidth(l), l)
		}
		for _, w := range strings.Fields(l) {
			if w != "·" && !words[w] {
				t.Errorf("word cut: %q in %q", w, l)
			}
		}
	}
}

// In follow mode the newest row is highlighted, and enter opens the row
// highlighted on screen even when newer emails arrived since it was drawn.
func TestFollowHighlightsAndEnterOpensIt(t *testing.T) {
	evs := synthRun(120)
	feed := &staticFeed{evs: until(evs, 20*time.Second), now: 20 * time.Second}
	m := newModel(asciiStyles(), feed, nil, 0, nil)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(tickMsg{T: time.Unix(0, 0)})
	if !m.ep.follow {
		t.Fatal("not following at the start")
	}
	newest := m.s.rowAt(m.s.rowCount() - 1).ID
	marked := ""
	for _, l := range strings.Split(m.View(), "\n") {
		if strings.Contains(l, "›") {
			marked = l
		}
	}
	if marked == "" || !strings.Contains(marked, " "+itoa(newest)+" ") {
		t.Fatalf("following, the newest row #%d is not highlighted: %q", newest, marked)
	}
	// Newer emails are folded (as a tick would) but not drawn yet.
	m.s.addAll(until(evs, 25*time.Second)[len(feed.evs):])
	m.Update(keyMsg("enter"))
	if m.detail.id != newest {
		t.Errorf("enter opened #%d, want the highlighted #%d", m.detail.id, newest)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A sender too long for its column drops its domain at the "@" rather than
// being cut inside a word.
func TestSenderCellDropsDomain(t *testing.T) {
	for _, c := range []struct {
		from string
		sw   int
		want string
	}{
		{"ann@example.com", 16, "ann@example.com"},
		{"climb.sam@example.com", 12, "climb.sam"},
		{"ines.costa@example.com", 8, "ines.costa"}, // the name alone is cut by fit
	} {
		if got := senderCell(c.from, c.sw); got != c.want {
			t.Errorf("senderCell(%q, %d) = %q, want %q", c.from, c.sw, got, c.want)
		}
	}
	m := modelAt(t, 120, 30*time.Second, 80, 24, nil)
	if v := m.View(); strings.Contains(v, "@e…") || strings.Contains(v, "@exa…") {
		t.Errorf("a sender is cut inside its domain at 80×24:\n%s", v)
	}
}

// At 120×40 and 160×48 the Breaker pane shows its prediction whole too.
func TestWidePredictionWhole(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {160, 48}} {
		m := predictedModel(t, size[0], size[1])
		v := m.View()
		if strings.Contains(v, "more (tab here") || !strings.Contains(v, "predicted 4.2–4.8 s") {
			t.Errorf("%dx%d: the prediction is not whole on screen:\n%s", size[0], size[1], v)
		}
	}
}

// The footer's messages and prompts are never cut inside a word: a long
// message wraps, a prompt's hint is dropped whole when it does not fit.
func TestFooterNotCut(t *testing.T) {
	m := modelAt(t, 120, 30*time.Second, 60, 24, nil)
	m.flash = `filter "primray": write errors, backup, canned, wrong or an email number`
	for _, l := range m.footer(60) {
		if strings.Contains(l, "…") || ansi.StringWidth(l) != 60 {
			t.Errorf("flash line %q", l)
		}
	}
	m.flash, m.prompt, m.input = "", promptFilter, "wrong answers"
	for _, l := range m.footer(60) {
		if strings.Contains(l, "…") {
			t.Errorf("prompt line cut: %q", l)
		}
	}
}
