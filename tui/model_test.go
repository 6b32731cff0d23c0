package tui

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/scoring"
)

// asciiStyles are the styles of a terminal without colour, for goldens.
func asciiStyles() Styles {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	return NewStyles(r)
}

// fakeControls records what the dashboard asked of the run.
type fakeControls struct {
	calls    []string
	paused   bool
	startErr error
}

func (c *fakeControls) Stop()                 { c.calls = append(c.calls, "stop") }
func (c *fakeControls) Pause()                { c.calls = append(c.calls, "pause"); c.paused = true }
func (c *fakeControls) Resume()               { c.calls = append(c.calls, "resume"); c.paused = false }
func (c *fakeControls) Paused() bool          { return c.paused }
func (c *fakeControls) OutageKinds() []string { return inject.Kinds() }
func (c *fakeControls) StartOutage(kind string) error {
	c.calls = append(c.calls, "start "+kind)
	return c.startErr
}
func (c *fakeControls) EndOutage() { c.calls = append(c.calls, "end") }

// modelAt is a live-looking model fed the synthetic run up to at.
func modelAt(t testing.TB, n int, at time.Duration, w, h int, ctl Controls) *Model {
	t.Helper()
	evs := synthRun(n)
	done := at < 0
	if done {
		at = evs[len(evs)-1].At
	} else {
		evs = until(evs, at)
	}
	m := newModel(asciiStyles(), &staticFeed{evs: evs, now: at, done: done}, ctl, 0, nil)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.Update(tickMsg{T: time.Unix(0, 0)})
	return m
}

func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "pgup":
		return tea.KeyMsg{Type: tea.KeyPgUp}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case " ":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

func TestUpdateKeys(t *testing.T) {
	tests := []struct {
		name  string
		at    time.Duration // < 0: the drill has ended
		keys  []string
		calls []string
		quit  bool
		check func(t *testing.T, m *Model)
	}{
		{name: "q stops the drill and quits", at: 30 * time.Second, keys: []string{"q"}, calls: []string{"stop"}, quit: true},
		{name: "ctrl+c stops the drill and quits", at: 30 * time.Second, keys: []string{"ctrl+c"}, calls: []string{"stop"}, quit: true},
		{name: "q after the end only quits", at: -1, keys: []string{"q"}, quit: true},
		{name: "p pauses then resumes", at: 10 * time.Second, keys: []string{"p", "p"}, calls: []string{"pause", "resume"}},
		{name: "o before the outage asks the kind, 1 starts busy", at: 10 * time.Second, keys: []string{"o", "1"}, calls: []string{"start busy"}},
		{name: "o then 2 starts a hang", at: 10 * time.Second, keys: []string{"o", "2"}, calls: []string{"start hang"}},
		{name: "o then 8 starts the eighth kind, trickle", at: 10 * time.Second, keys: []string{"o", "8"}, calls: []string{"start trickle"}},
		{name: "o then 9 (no such kind) starts nothing", at: 10 * time.Second, keys: []string{"o", "9"}},
		{name: "o then esc cancels", at: 10 * time.Second, keys: []string{"o", "esc"}, check: func(t *testing.T, m *Model) {
			if m.choosing {
				t.Error("still choosing an outage kind after esc")
			}
		}},
		{name: "o during the outage ends it", at: 30 * time.Second, keys: []string{"o"}, calls: []string{"end"}},
		{name: "tab cycles focus", at: 30 * time.Second, keys: []string{"tab", "tab", "tab"}, check: func(t *testing.T, m *Model) {
			if m.focus != paneQuality {
				t.Errorf("focus %d, want Quality", m.focus)
			}
		}},
		{name: "shift+tab goes back", at: 30 * time.Second, keys: []string{"shift+tab"}, check: func(t *testing.T, m *Model) {
			if m.focus != paneQuality {
				t.Errorf("focus %d, want Quality", m.focus)
			}
		}},
		{name: "up stops following", at: 30 * time.Second, keys: []string{"up", "k"}, check: func(t *testing.T, m *Model) {
			if m.ep.follow || m.ep.sel != m.s.rowCount()-3 {
				t.Errorf("follow %v sel %d, want false, %d", m.ep.follow, m.ep.sel, m.s.rowCount()-3)
			}
		}},
		{name: "down to the last row follows again", at: 30 * time.Second, keys: []string{"up", "j"}, check: func(t *testing.T, m *Model) {
			if !m.ep.follow {
				t.Error("not following after returning to the newest row")
			}
		}},
		{name: "enter opens the selected email, esc closes", at: 30 * time.Second, keys: []string{"pgup", "enter"}, check: func(t *testing.T, m *Model) {
			if m.detail.id == 0 {
				t.Fatal("no detail open")
			}
			if v := m.View(); !strings.Contains(v, "Email #") || !strings.Contains(v, "right answer") {
				t.Errorf("detail view lacks its title or answers:\n%s", v)
			}
			m.Update(keyMsg("esc"))
			if m.detail.id != 0 {
				t.Error("esc did not close the detail")
			}
		}},
		{name: "? shows the full help", at: 30 * time.Second, keys: []string{"?"}, check: func(t *testing.T, m *Model) {
			if !m.showHelp || !strings.Contains(m.View(), "follow newest") {
				t.Error("full help not shown")
			}
		}},
		{name: "p after the end does nothing", at: -1, keys: []string{"p", "o"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctl := &fakeControls{}
			m := modelAt(t, 120, tc.at, 120, 40, ctl)
			m.View()
			var cmd tea.Cmd
			for _, k := range tc.keys {
				_, cmd = m.Update(keyMsg(k))
				m.View()
			}
			if !reflect.DeepEqual(ctl.calls, tc.calls) {
				t.Errorf("controls called %v, want %v", ctl.calls, tc.calls)
			}
			if got := isQuit(cmd); got != tc.quit {
				t.Errorf("quit %v, want %v", got, tc.quit)
			}
			if tc.check != nil {
				tc.check(t, m)
			}
		})
	}
}

func TestStartOutageErrorIsShown(t *testing.T) {
	ctl := &fakeControls{startErr: errors.New("an outage is already on")}
	m := modelAt(t, 120, 10*time.Second, 120, 40, ctl)
	m.Update(keyMsg("o"))
	m.Update(keyMsg("2"))
	if v := m.View(); !strings.Contains(v, "already on") {
		t.Errorf("error not shown:\n%s", v)
	}
}

// checkFrame asserts a frame is exactly h lines of at most w cells.
func checkFrame(t *testing.T, v string, w, h int) {
	t.Helper()
	lines := strings.Split(v, "\n")
	if len(lines) != h {
		t.Errorf("%d×%d: %d lines", w, h, len(lines))
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("%d×%d: line %d is %d cells: %q", w, h, i, n, l)
		}
	}
}

func TestUpdateResize(t *testing.T) {
	m := modelAt(t, 120, 30*time.Second, 120, 40, &fakeControls{})
	if m.View() == "" {
		t.Fatal("empty view after the first size")
	}
	for _, wh := range [][2]int{{80, 24}, {160, 48}, {120, 40}, {100, 30}, {60, 20}, {40, 12}, {20, 6}, {200, 60}, {80, 24}} {
		m.Update(tea.WindowSizeMsg{Width: wh[0], Height: wh[1]})
		checkFrame(t, m.View(), wh[0], wh[1])
	}
	for _, k := range []string{"enter", "?"} {
		m.Update(keyMsg(k))
		for _, wh := range [][2]int{{80, 24}, {120, 40}, {30, 8}} {
			m.Update(tea.WindowSizeMsg{Width: wh[0], Height: wh[1]})
			checkFrame(t, m.View(), wh[0], wh[1])
		}
	}
}

func TestUpdateDrillEvents(t *testing.T) {
	log := event.NewLog(time.Unix(1000, 0))
	ctl := &fakeControls{}
	m := newModel(asciiStyles(), &liveFeed{log: log, cur: log.Cursor()}, ctl, 0, nil)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	evs := synthRun(120)
	feedTo := func(at time.Duration) {
		for _, e := range evs[log.Len():] {
			if e.At > at {
				break
			}
			log.AppendRecorded(e)
		}
		_, cmd := m.Update(tickMsg{T: log.Start().Add(at)})
		if cmd == nil {
			t.Fatal("tick did not schedule the next")
		}
	}
	steps := []struct {
		at   time.Duration
		want []string
		not  []string
	}{
		{at: 10 * time.Second, want: []string{"before", "closed", "Emails", "Breaker", "Calls", "Quality"}, not: []string{"OPEN", "Summary"}},
		{at: 22 * time.Second, want: []string{"ACTIVE 18.0 s left", "OPEN", "first open 4.5 s"}},
		{at: 45 * time.Second, want: []string{"over", "closed", "probes 3: 1 ok, 2 failed"}},
	}
	for _, st := range steps {
		feedTo(st.at)
		v := m.View()
		for _, w := range st.want {
			if !strings.Contains(v, w) {
				t.Errorf("at %v: view lacks %q:\n%s", st.at, w, v)
			}
		}
		for _, w := range st.not {
			if strings.Contains(v, w) {
				t.Errorf("at %v: view has %q", st.at, w)
			}
		}
		if got := m.now; got != st.at {
			t.Errorf("clock %v, want %v", got, st.at)
		}
	}
	if n := m.s.rowCount(); n != 91 {
		t.Errorf("%d rows at 45 s, want 91", n)
	}
	if r := m.s.row(35); r == nil || r.Result.ServedBy != event.ServedBackup {
		t.Errorf("email 35 not served by the backup: %+v", r)
	}
}

func TestUpdateEndOfDrill(t *testing.T) {
	evs := synthRun(120)
	log := event.NewLog(time.Unix(1000, 0))
	for _, e := range evs {
		log.AppendRecorded(e)
	}
	log.Close()
	m := newModel(asciiStyles(), &liveFeed{log: log, cur: log.Cursor()}, &fakeControls{}, 0, nil)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(tickMsg{T: log.Start().Add(5 * time.Minute)})
	if !m.done {
		t.Fatal("not done after reading a closed log")
	}
	want := scoring.Summarize(evs)
	if !reflect.DeepEqual(m.s.summary, want) {
		t.Errorf("summary %+v, want %+v", m.s.summary, want)
	}
	if m.now != evs[len(evs)-1].At {
		t.Errorf("clock %v after the end, want the last event's %v", m.now, evs[len(evs)-1].At)
	}
	v := m.View()
	for _, w := range []string{"Summary", "ENDED completed", "served P/B/C/E 67/53/0/0", "calls to broken 11", "wall 60.7 s"} {
		if !strings.Contains(v, w) {
			t.Errorf("final view lacks %q:\n%s", w, v)
		}
	}
	// It stays open until the user quits.
	if _, cmd := m.Update(tickMsg{T: log.Start().Add(6 * time.Minute)}); isQuit(cmd) {
		t.Error("quit by itself at the end")
	}
}

func TestReplayKeys(t *testing.T) {
	evs := synthRun(120)
	rp := newReplayFeed(evs, 1)
	m := newModel(asciiStyles(), rp, nil, 0, nil)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	t0 := time.Unix(0, 0)
	m.Update(tickMsg{T: t0})
	m.Update(tickMsg{T: t0.Add(20 * time.Second)})
	if m.now != 20*time.Second || m.s.rowCount() != 41 {
		t.Fatalf("at 20 s: clock %v, %d rows", m.now, m.s.rowCount())
	}
	m.Update(keyMsg("left"))
	if m.now != 15*time.Second || m.s.rowCount() != 31 {
		t.Errorf("after ←: clock %v, %d rows; want 15 s, 31", m.now, m.s.rowCount())
	}
	if got, want := m.s.fold.Summary(), scoring.Summarize(until(evs, 15*time.Second)); !reflect.DeepEqual(got, want) {
		t.Errorf("refold after seeking back differs:\n%+v\n%+v", got, want)
	}
	m.Update(keyMsg("right"))
	m.Update(keyMsg("right"))
	if m.now != 25*time.Second {
		t.Errorf("after → →: clock %v", m.now)
	}
	m.Update(keyMsg("+"))
	m.Update(tickMsg{T: t0.Add(21 * time.Second)})
	if m.now != 27*time.Second {
		t.Errorf("at 2×: clock %v, want 27 s", m.now)
	}
	m.Update(keyMsg(" "))
	m.Update(tickMsg{T: t0.Add(30 * time.Second)})
	if m.now != 27*time.Second || !strings.Contains(m.View(), "PAUSED") {
		t.Errorf("paused replay moved to %v", m.now)
	}
	m.Update(keyMsg("-"))
	m.Update(keyMsg(" "))
	m.Update(tickMsg{T: t0.Add(130 * time.Second)})
	if !m.done || !strings.Contains(m.View(), "Summary") {
		t.Error("replay did not reach the end")
	}
	if _, cmd := m.Update(keyMsg("p")); cmd != nil {
		t.Error("p did something in a replay")
	}
}

// TestOutageMenuListsEveryKind: after o, the footer offers every fault
// kind with its key, and the frame still fits 80×24.
func TestOutageMenuListsEveryKind(t *testing.T) {
	m := modelAt(t, 120, 10*time.Second, 80, 24, &fakeControls{})
	m.Update(keyMsg("o"))
	v := m.View()
	for _, want := range []string{"1 busy", "2 hang", "3 malformed", "4 rate-limit", "5 reset", "6 slow", "7 stall", "8 trickle", "esc cancel"} {
		if !strings.Contains(v, want) {
			t.Errorf("outage menu lacks %q:\n%s", want, v)
		}
	}
	checkFrame(t, v, 80, 24)
}

// TestReplaySpeedWhilePaused: + and - change the replay speed shown in the
// header while the replay is paused, in the email dashboard and in the
// chat view, and the clock stays put.
func TestReplaySpeedWhilePaused(t *testing.T) {
	rp := newReplayFeed(synthRun(120), 1)
	rp.pos, rp.paused = 20*time.Second, true // as drill replay --at 20s opens it
	m := newModel(asciiStyles(), rp, nil, 0, nil)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	t0 := time.Unix(0, 0)
	m.Update(tickMsg{T: t0})
	m.Update(tickMsg{T: t0.Add(time.Second)})
	for _, step := range []struct{ key, want string }{{"+", "replay 2× 20.0/"}, {"+", "replay 4× 20.0/"}, {"-", "replay 2× 20.0/"}, {"-", "replay 1× 20.0/"}, {"-", "replay 0.5× 20.0/"}} {
		m.Update(keyMsg(step.key))
		m.Update(tickMsg{T: t0.Add(2 * time.Second)})
		if v := m.View(); !strings.Contains(v, step.want) || !strings.Contains(v, "PAUSED") {
			t.Errorf("after %s while paused, the header lacks %q:\n%s", step.key, step.want, strings.SplitN(v, "\n", 3)[0])
		}
	}
	v := newConversations(asciiStyles(), newReplayFeed(chatRun(), 1), 0)
	v.Update(tea.WindowSizeMsg{Width: 120, Height: 12})
	v.Update(tickMsg{T: t0})
	v.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(" ")})
	for _, step := range []struct{ key, want string }{{"+", "replay 2× "}, {"-", "replay 1× "}, {"-", "replay 0.5× "}} {
		v.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(step.key)})
		v.Update(tickMsg{T: t0.Add(time.Second)})
		if got := v.View(); !strings.Contains(got, step.want) || !strings.Contains(got, "PAUSED") {
			t.Errorf("chat: after %s while paused, the header lacks %q:\n%s", step.key, step.want, strings.SplitN(got, "\n", 2)[0])
		}
	}
}
