package tui

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// The tmux captures in testdata/tmux (made by capture.sh with the real
// binary: a hang drill replayed paused at 20 s, 45 s and its end) are the
// frames the model draws from the same journal, and every headline figure
// is in them whole.
const tmuxJournal = "testdata/tmux/hang-breaker.jsonl"

var tmuxHyps = []string{"served.error == 0", "calls_to_broken_outage <= 60"}

// replayModel is a model replaying the tmux journal, paused at at.
func replayModel(t testing.TB, at time.Duration, w, h int) *Model {
	t.Helper()
	j, err := journal.ReadFile(tmuxJournal)
	if err != nil {
		t.Fatal(err)
	}
	hyps, err := scoring.ParseExprs(tmuxHyps)
	if err != nil {
		t.Fatal(err)
	}
	f := newReplayFeed(j.Events, 1)
	f.pos, f.paused = min(at, f.end), true
	m := newModel(asciiStyles(), f, nil, 0, hyps)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.Update(tickMsg{T: time.Unix(0, 0)})
	return m
}

func trimLines(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n "), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func TestTmuxCaptures(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {160, 48}} {
		for _, at := range []string{"20s", "45s", "end"} {
			name := fmt.Sprintf("%dx%d-%s", size[0], size[1], at)
			t.Run(name, func(t *testing.T) {
				pos := 999 * time.Second
				if at != "end" {
					pos, _ = time.ParseDuration(at)
				}
				m := replayModel(t, pos, size[0], size[1])
				v := m.View()
				checkFrame(t, v, size[0], size[1])
				want, err := os.ReadFile("testdata/tmux/hang-breaker-" + name + ".txt")
				if err != nil {
					t.Fatal(err)
				}
				if got := trimLines(v); got != trimLines(string(want)) {
					t.Errorf("frame differs from the tmux capture:\n%s\nwant\n%s", got, want)
				}
				// Every headline figure, whole, in the capture.
				sum := m.s.summary
				for _, fig := range []string{
					fmt.Sprintf("%d calls to broken primary", m.s.fold.CallsToBroken()),
					fmt.Sprintf("errors %d", sum.Served.Error),
					fmt.Sprintf("canned %d", sum.Served.Canned),
					"breaker " + stateWord(m.s.fold.Breaker("primary").State),
					"outage hang",
					"hypotheses ",
				} {
					if !strings.Contains(string(want), fig) {
						t.Errorf("capture lacks %q", fig)
					}
				}
			})
		}
	}
}

// send passes msgs to a teatest model and waits until its output shows want.
func waitFor(t *testing.T, tm *teatest.TestModel, want string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(want)) },
		teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

func finalModel(t *testing.T, tm *teatest.TestModel) *Model {
	t.Helper()
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	m := tm.FinalModel(t).(*Model)
	m.quitting = false // look at the frame it would draw
	return m
}

func typeText(tm *teatest.TestModel, s string) {
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)})
}

// `/` filters the Emails pane: backup shows only emails the backup served;
// esc clears it.
func TestTeaFilter(t *testing.T) {
	m := replayModel(t, 999*time.Second, 120, 40)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	typeText(tm, "/")
	typeText(tm, "backup")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "filter backup: 51 of 120")
	final := finalModel(t, tm)
	n := final.ep.count(final.s)
	if n != final.s.summary.Served.Backup {
		t.Fatalf("filter backup lists %d emails, the backup served %d", n, final.s.summary.Served.Backup)
	}
	for i := 0; i < n; i++ {
		if r := final.ep.at(final.s, i); r.Result.ServedBy != "backup" {
			t.Errorf("row %d is email #%d served by %s", i, r.ID, r.Result.ServedBy)
		}
	}
	final.Update(keyMsg("esc"))
	if final.ep.filter != "" || final.ep.count(final.s) != 120 {
		t.Errorf("esc left filter %q with %d rows", final.ep.filter, final.ep.count(final.s))
	}
	// A word the filter does not know is refused with the valid ones.
	final.Update(keyMsg("/"))
	for _, r := range "bogus" {
		final.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	final.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if final.ep.filter != "" || !strings.Contains(final.View(), "primary, backup, canned, errors, handed, wrong, waiting") {
		t.Errorf("bad filter accepted or not explained:\n%s", final.View())
	}
}

// `g` jumps to an email: it is selected and on screen.
func TestTeaJump(t *testing.T) {
	m := replayModel(t, 999*time.Second, 120, 40)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	typeText(tm, "g")
	typeText(tm, "35")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "marcus")
	final := finalModel(t, tm)
	if r := final.ep.at(final.s, final.ep.sel); r.ID != 35 || final.ep.follow {
		t.Fatalf("selected #%d (follow %v), want #35", r.ID, final.ep.follow)
	}
	if v := final.View(); !strings.Contains(v, "›   35") {
		t.Errorf("#35 not marked on screen:\n%s", v)
	}
	final.Update(keyMsg("g"))
	for _, r := range "999" {
		final.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	final.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if v := final.View(); !strings.Contains(v, "email #999 has not been sent") {
		t.Errorf("jump to an unsent email not explained:\n%s", v)
	}
}

// The mouse wheel scrolls the Emails pane and a click selects a row.
func TestTeaMouse(t *testing.T) {
	m := replayModel(t, 999*time.Second, 120, 40)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	waitFor(t, tm, "Emails")
	// Row y of the screen: the header, the pane border, the column header.
	for range 10 {
		tm.Send(tea.MouseMsg{X: 10, Y: 10, Button: tea.MouseButtonWheelUp, Action: tea.MouseActionPress})
	}
	final := finalModel(t, tm)
	if final.ep.follow || final.ep.sel != 119-30 {
		t.Fatalf("after 10 wheel steps up: selection %d (follow %v), want %d", final.ep.sel, final.ep.follow, 119-30)
	}
	top := final.ep.top
	r := final.rects()[paneEmails]
	final.Update(tea.MouseMsg{X: 10, Y: r.y + 2 + 4, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if final.ep.sel != top+4 {
		t.Errorf("click on the fifth row selected row %d, want %d", final.ep.sel, top+4)
	}
	// The wheel over the Calls pane scrolls that pane, not the emails.
	c := final.rects()[paneCalls]
	final.Update(tea.MouseMsg{X: c.x + 3, Y: c.y + 3, Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if final.focus != paneCalls || final.ep.sel != top+4 {
		t.Errorf("wheel over Calls: focus %d, selection %d", final.focus, final.ep.sel)
	}
}

// `?` shows the help over the panes without resizing them, and the footer
// keeps "? help" at every width.
func TestTeaHelpOverlay(t *testing.T) {
	m := replayModel(t, 45*time.Second, 120, 40)
	before := strings.Split(m.View(), "\n")
	rects := m.rects()
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	typeText(tm, "?")
	waitFor(t, tm, "Help (? or esc closes)")
	final := finalModel(t, tm)
	if !final.showHelp {
		t.Fatal("? did not show the help")
	}
	after := strings.Split(final.View(), "\n")
	if final.rects() != rects {
		t.Errorf("the help moved the panes: %v, was %v", final.rects(), rects)
	}
	// The lines above and below the overlay are unchanged.
	if after[3] != before[3] || after[len(after)-2] != before[len(before)-2] {
		t.Errorf("the overlay changed the frame outside it")
	}
	if !strings.Contains(final.View(), "filter emails") {
		t.Errorf("help lacks the filter key:\n%s", final.View())
	}
	final.Update(keyMsg("esc"))
	if final.showHelp {
		t.Error("esc did not close the help")
	}
	for _, w := range []int{60, 80, 120, 200} {
		final.Update(tea.WindowSizeMsg{Width: w, Height: 24})
		lines := strings.Split(final.View(), "\n")
		if !strings.HasSuffix(strings.TrimRight(lines[len(lines)-1], " "), "? help") {
			t.Errorf("at %d columns the footer is %q", w, lines[len(lines)-1])
		}
	}
	final.Update(tea.WindowSizeMsg{Width: 59, Height: 17})
	if v := final.View(); !strings.Contains(v, "terminal too small (need 60×18)") {
		t.Errorf("no notice at 59×17:\n%s", v)
	}
}

// While the filter prompt is open, q is text; ctrl+c still quits.
func TestPromptKeepsQButNotCtrlC(t *testing.T) {
	m := replayModel(t, 45*time.Second, 120, 40)
	m.Update(keyMsg("/"))
	if _, cmd := m.Update(keyMsg("q")); cmd != nil || m.input != "q" {
		t.Fatalf("q in the prompt: input %q, quit %v", m.input, cmd != nil)
	}
	if _, cmd := m.Update(tea.KeyMsg{Type: tea.KeyCtrlC}); !isQuit(cmd) {
		t.Error("ctrl+c in the prompt did not quit")
	}
}

// An outage ended by hand before its scheduled end shows its real window
// in the header, the Emails timeline and the final state; one started by
// hand and left on says so once the run is over, without ACTIVE.
func TestManualOutageWindows(t *testing.T) {
	evs := synthRun(120)
	// End the scheduled 15–40 s outage by hand at 22 s.
	var cut []event.Event
	for _, e := range evs {
		if e.Kind == event.OutageEnd {
			e.At = 22 * time.Second
			e.Detail = event.ByHand
			e.Window = &event.Window{From: 15 * time.Second, To: 22 * time.Second, ByHand: true}
		}
		cut = append(cut, e)
	}
	slices.SortStableFunc(cut, func(a, b event.Event) int { return cmp.Compare(a.At, b.At) })
	at := func(d time.Duration) *Model {
		m := newModel(asciiStyles(), &staticFeed{evs: until(cut, d), now: d}, nil, 0, nil)
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		m.Update(tickMsg{T: time.Unix(0, 0)})
		return m
	}
	m := at(30 * time.Second)
	head := strings.Join(renderHeader(m.st, m.s, 120, m.now, ""), "\n")
	if !strings.Contains(head, "outage hang 15.0–22.0 s (by hand)") || strings.Contains(head, "ACTIVE") {
		t.Errorf("header after the outage ended by hand:\n%s", head)
	}
	if inWindows(m.s, 30*time.Second, axisFor(m.s, m.now)) || !inWindows(m.s, 20*time.Second, axisFor(m.s, m.now)) {
		t.Error("the timeline still shades the scheduled window, not the real one")
	}

	// Started by hand at 50 s and never ended: over with the run.
	evs = synthRun(120)
	last := evs[len(evs)-1]
	open := slices.Clone(evs[:len(evs)-1])
	open = append(open, event.Event{At: 50 * time.Second, Kind: event.OutageStart, Fault: "busy", Rung: "primary", Detail: event.ByHand,
		Window: &event.Window{From: 50 * time.Second, To: -1, ByHand: true}})
	slices.SortStableFunc(open, func(a, b event.Event) int { return cmp.Compare(a.At, b.At) })
	open = append(open, last)
	m = newModel(asciiStyles(), &staticFeed{evs: open, now: last.At, done: true}, nil, 0, nil)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(tickMsg{T: time.Unix(0, 0)})
	v := m.View()
	if strings.Contains(v, "ACTIVE") || !strings.Contains(v, "(by hand) · over with the run") || !strings.Contains(v, "ENDED") {
		t.Errorf("final frame after an outage left on by hand:\n%s", v)
	}
}
