package tui

import (
	"strconv"

	"github.com/charmbracelet/bubbles/key"
)

// keyMap is every key the dashboard answers to. Live runs and replays show
// different subsets in the help.
type keyMap struct {
	Quit   key.Binding
	Pause  key.Binding
	Outage key.Binding
	Kind   key.Binding // the outage kind's number, after o
	Focus  key.Binding
	Back   key.Binding
	Up     key.Binding
	Down   key.Binding
	PgUp   key.Binding
	PgDown key.Binding
	Follow key.Binding
	Open   key.Binding
	Close  key.Binding
	Help   key.Binding
	Filter key.Binding
	Jump   key.Binding
	Base   key.Binding // the baseline's bar under each email

	// Replay only.
	Play   key.Binding
	Rewind key.Binding
	Skip   key.Binding
	Faster key.Binding
	Slower key.Binding

	live  bool
	kinds []string // the outage kinds 1, 2, … pick after o
}

// newKeyMap is the key map of a live run (kinds: the outage kinds its
// controls can start) or of a replay.
func newKeyMap(live bool, kinds []string) keyMap {
	keys := kindKeys(kinds)
	kindHelp := "none"
	if len(keys) > 0 {
		kindHelp = "1–" + keys[len(keys)-1]
	}
	return keyMap{
		live:   live,
		kinds:  kinds,
		Quit:   key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Pause:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause/resume arrivals")),
		Outage: key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "start/end outage now")),
		Kind:   key.NewBinding(key.WithKeys(keys...), key.WithHelp(kindHelp, "outage kind, after o")),
		Focus:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		Back:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:   key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PgUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PgDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Follow: key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end/G", "follow newest")),
		Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "email detail")),
		Close:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
		Help:   key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Filter: key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter emails")),
		Jump:   key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "go to email #")),
		Base:   key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "baseline bars on/off")),
		Play:   key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "pause/play")),
		Rewind: key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "back 5 s")),
		Skip:   key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "ahead 5 s")),
		Faster: key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "faster")),
		Slower: key.NewBinding(key.WithKeys("-"), key.WithHelp("-", "slower")),
	}
}

// ShortHelp is the footer's keys, most useful first; the footer drops them
// from the end to fit and always ends with "? help".
func (k keyMap) ShortHelp() []key.Binding {
	filter := key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter"))
	jump := key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "go to #"))
	outage := key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "outage"))
	pause := key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause"))
	if k.live {
		return []key.Binding{k.Quit, outage, pause, filter, jump, k.Focus, k.Open}
	}
	return []key.Binding{k.Quit, k.Play, k.Rewind, k.Skip, filter, jump, k.Faster, k.Slower, k.Focus, k.Open}
}

// FullHelp is the help shown after `?`.
func (k keyMap) FullHelp() [][]key.Binding {
	nav := []key.Binding{k.Focus, k.Back, k.Up, k.Down, k.PgUp, k.PgDown, k.Follow, k.Filter, k.Jump}
	detail := []key.Binding{k.Open, k.Close, k.Help, k.Quit}
	if k.live {
		// b only in a live run: a replay has no baseline log to draw
		// bars from (b says so in the footer).
		return [][]key.Binding{{k.Pause, k.Outage, k.Kind}, append(nav, k.Base), detail}
	}
	return [][]key.Binding{{k.Play, k.Rewind, k.Skip, k.Faster, k.Slower}, nav, detail}
}

// kindKeys are the keys that pick an outage kind after o: 1 for the first
// of kinds, and so on.
func kindKeys(kinds []string) []string {
	var ks []string
	for i := range kinds {
		ks = append(ks, strconv.Itoa(i+1))
	}
	return ks
}

// kindForKey returns the outage kind a key picks after o.
func (k keyMap) kindForKey(pressed string) (string, bool) {
	n, err := strconv.Atoi(pressed)
	kinds := k.kinds
	if err != nil || n < 1 || n > len(kinds) {
		return "", false
	}
	return kinds[n-1], true
}

// kindMenu lists the outage kinds with their keys, for the footer.
func (k keyMap) kindMenu() []string {
	var segs []string
	for i, kind := range k.kinds {
		segs = append(segs, strconv.Itoa(i+1)+" "+kind)
	}
	return append(segs, "esc cancel")
}

// nextDrawn is the pane tab (step 1) or shift+tab (step -1) moves the
// focus to: the next one in tab order that the layout drew. A pane the
// layout hid (the Quality pane on a short narrow terminal) never takes the
// focus; with none drawn (an email's detail is open) the focus stays.
func (m *Model) nextDrawn(step int) int {
	for i := 1; i < paneCount; i++ {
		p := ((m.focus+step*i)%paneCount + paneCount) % paneCount
		if r := m.panel(p).rect; r.w > 0 && r.h > 0 {
			return p
		}
	}
	return m.focus
}

// outageKinds are the kinds a run's controls can start; none without controls.
func outageKinds(ctl Controls) []string {
	if ctl == nil {
		return nil
	}
	return ctl.OutageKinds()
}
