package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/scoring"
)

// SweepSource is what the sweep dashboard reads: one row per setting of a
// `drill sweep`, filling in live as the setting's runs go.
type SweepSource struct {
	// Labels name the rows: each setting's flags that differ between rows.
	Labels []string
	// Logs returns the event logs of a row's runs started so far, one per
	// repeat (none before the first starts). The dashboard calls it from
	// its own goroutine while runs start, so it must be safe for that.
	Logs func(row int) []*event.Log
	// Open, if set, shows a row's run when the user presses enter (the
	// sweep dashboard is off the terminal meanwhile); nil opens the row's
	// first run in the live dashboard, read-only.
	Open func(ctx context.Context, row int) error
}

// sweepSortKeys are the columns the sweep dashboard sorts by, in the
// order `s` cycles through them, and their figures (the registry says
// which way each is better).
var sweepSortKeys = []struct{ name, figure string }{
	{"setting", ""},
	{"p95 wait", "p95_wait_outage_s"},
	{"all 4 right", "all4_right"},
	{"calls", "calls_to_broken_outage"},
	{"progress", "answered"},
}

// sweepRunState follows one run of a row.
type sweepRunState struct {
	cur  *event.Cursor
	fold *scoring.Fold
}

// sweepModel is the sweep dashboard.
type sweepModel struct {
	src      SweepSource
	runs     [][]*sweepRunState
	stats    []map[string]scoring.Stat // per row, the figures over its runs so far
	dom      []bool                    // per row: another row of its outage beats it
	setCols  []string                  // the settings' flags, one column each
	setVals  [][]string                // per row, its value of each flag in setCols
	fixed    []string                  // the flags every row sets alike
	emails   []int                     // per row: emails answered of emails planned
	planned  []int
	order    []int // rows in display order
	sortBy   int   // index into sweepSortKeys
	reverse  bool
	sel      int  // position of the selection in order
	hoff     int  // the first figure column shown (←/→) when they do not all fit
	showHelp bool // the key help (?) is shown under the table
	open     int  // the row whose run to open on quit; -1 for none
	tick     time.Duration
	width    int
	height   int
	bold     lipgloss.Style
	faint    lipgloss.Style
}

// sweepState is what survives a visit to a run's dashboard.
type sweepState struct {
	sortBy  int
	reverse bool
	sel     int
}

func newSweepModel(src SweepSource, tick time.Duration, st sweepState, r *lipgloss.Renderer) *sweepModel {
	if tick <= 0 {
		tick = 500 * time.Millisecond
	}
	n := len(src.Labels)
	m := &sweepModel{src: src, runs: make([][]*sweepRunState, n), stats: make([]map[string]scoring.Stat, n),
		dom: make([]bool, n), emails: make([]int, n), planned: make([]int, n), sortBy: st.sortBy, reverse: st.reverse, sel: st.sel, open: -1,
		tick: tick, width: 120, height: 30,
		bold: r.NewStyle().Bold(true), faint: r.NewStyle().Faint(true)}
	m.setCols, m.setVals, m.fixed = settingColumns(src.Labels)
	m.refresh()
	return m
}

type sweepTick struct{}

func (m *sweepModel) Init() tea.Cmd {
	return tea.Tick(m.tick, func(time.Time) tea.Msg { return sweepTick{} })
}

// refresh reads every run's new events and, when there were any,
// recomputes the rows: a finished or paused sweep costs nothing a tick.
func (m *sweepModel) refresh() {
	changed := m.order == nil // the first refresh lays out the rows
	for i := range m.src.Labels {
		logs := m.src.Logs(i)
		for len(m.runs[i]) < len(logs) {
			l := logs[len(m.runs[i])]
			m.runs[i] = append(m.runs[i], &sweepRunState{cur: l.Cursor(), fold: scoring.NewFold()})
			changed = true
		}
		for _, r := range m.runs[i] {
			if evs := r.cur.Poll(); len(evs) > 0 {
				r.fold.AddAll(evs)
				changed = true
			}
		}
	}
	if !changed {
		return
	}
	settings := make([]scoring.SweepSetting, len(m.src.Labels))
	for i := range m.src.Labels {
		m.emails[i], m.planned[i] = 0, 0
		for _, r := range m.runs[i] {
			s := r.fold.Summary()
			// Settings compete within their outage, as in drill sweep's table.
			settings[i].Scenario = scoring.SweepScenario(s.OutageLabel(), sweep.FaultFlags(m.src.Labels[i]))
			settings[i].Summaries = append(settings[i].Summaries, s)
			if settings[i].All4ByEmail == nil {
				// The first run's answers, for the front rule's McNemar
				// test, as the report pairs them.
				settings[i].All4ByEmail = r.fold.All4ByAnswered()
			}
			m.emails[i] += s.Served.Total()
			m.planned[i] += s.Emails
		}
	}
	// The fold's sweep aggregation, as drill sweep's table and the report
	// read it; a summary always has its figures, so on the impossible
	// error the rows keep their last figures.
	if rows, err := scoring.AggregateSweep(settings); err == nil {
		for i, r := range rows {
			m.stats[i], m.dom[i] = r.Figures, r.Dominated
		}
	}
	m.sort()
}

// sort orders the rows by the chosen column, best first unless reversed.
func (m *sweepModel) sort() {
	selected := -1
	if m.sel >= 0 && m.sel < len(m.order) {
		selected = m.order[m.sel]
	}
	k := sweepSortKeys[m.sortBy]
	if k.figure == "" {
		m.order = make([]int, len(m.src.Labels))
		for i := range m.order {
			m.order[i] = i
		}
		if m.reverse {
			slices.Reverse(m.order)
		}
	} else {
		higher, _ := scoring.HigherIsBetter(k.figure)
		m.order = scoring.OrderBy(m.stats, k.figure, higher != m.reverse)
	}
	if selected >= 0 {
		m.sel = slices.Index(m.order, selected)
	}
	m.sel = min(max(m.sel, 0), max(len(m.order)-1, 0))
}

func (m *sweepModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case sweepTick:
		m.refresh()
		return m, m.Init()
	case tea.WindowSizeMsg:
		if msg.Width > 0 && msg.Height > 0 { // 0: a terminal that does not say
			m.width, m.height = msg.Width, msg.Height
			m.reveal()
		}
	case tea.KeyMsg:
		if m.showHelp && (msg.String() == "?" || msg.String() == "esc") {
			m.showHelp = false
			return m, nil
		}
		switch msg.String() {
		case "?":
			m.showHelp = true
		case "q", "ctrl+c", "esc":
			return m, tea.Quit
		case "left", "h":
			m.hoff = max(m.hoff-1, 0)
		case "right", "l":
			frozen, figs := m.columns()
			if m.hoff+m.shown(frozen, figs, m.hoff) < len(figs) {
				m.hoff++
			}
		case "up", "k":
			m.sel = max(m.sel-1, 0)
		case "down", "j":
			m.sel = max(min(m.sel+1, len(m.order)-1), 0)
		case "home", "g":
			m.sel = 0
		case "end", "G":
			m.sel = max(len(m.order)-1, 0) // an empty table keeps row 0
		case "s":
			m.sortBy = (m.sortBy + 1) % len(sweepSortKeys)
			m.sort()
			m.reveal()
		case "r":
			m.reverse = !m.reverse
			m.sort()
		case "enter":
			if m.sel >= 0 && m.sel < len(m.order) && len(m.runs[m.order[m.sel]]) > 0 {
				m.open = m.order[m.sel]
				return m, tea.Quit
			}
		}
	}
	return m, nil
}

// cell formats a row's figure as its median, "—" when not measured.
func (m *sweepModel) cell(row int, figure string, f func(float64) string) string {
	s, ok := m.stats[row][figure]
	if !ok || s.N == 0 {
		return "—"
	}
	return f(s.Median)
}

// sweepCol is one column of the sweep table: its head, its cell per row
// (by row index, not display order) and whether it is right-aligned.
type sweepCol struct {
	key   string // the sort key's name (sweepSortKeys), "" for none
	head  string
	cells []string
	right bool
	minW  int // the least width, so the column does not move as counts grow
}

func (c sweepCol) width() int {
	w := max(c.minW, utf8.RuneCountInString(c.head))
	for _, v := range c.cells {
		w = max(w, utf8.RuneCountInString(v))
	}
	return w
}

func (c sweepCol) cell(s string) string {
	if c.right {
		return fmt.Sprintf("%*s", c.width(), s)
	}
	return fmt.Sprintf("%-*s", c.width(), s)
}

// columns are the table's columns for the window's width: the frozen ones
// (# and a column per setting) and the figures, which scroll sideways
// (hoff) when they do not all fit. A table wider than the window first
// drops the flags' "--", letters the served counts tighter and moves
// progress (the title totals it) last, then shortens the settings' heads
// at a "-" ("primary…", spelt out above the table) until the served
// counts, p95 wait, all 4 right, calls and the trade-off fit: the figures
// a user sorts by stay in view at 80 columns, the trade-off too from 100.
func (m *sweepModel) columns() (frozen, figs []sweepCol) {
	n := len(m.src.Labels)
	num := sweepCol{head: "#", cells: make([]string, n), right: true, minW: 4}
	for i := range n {
		num.cells[i] = fmt.Sprint(i + 1)
	}
	sets := make([]sweepCol, len(m.setCols))
	for k, name := range m.setCols {
		sets[k] = sweepCol{key: "setting", head: flagHead(name), cells: make([]string, n)}
		for i := range n {
			sets[k].cells[i] = m.setVals[i][k]
		}
	}
	// Who served: P / B / C / E, with H and R when any run handed emails
	// over or its worker pool rejected some, as drill sweep's table.
	servers := plain.ServedColumnsOfFigures(m.stats)
	letters := make([]string, len(servers))
	for k, server := range servers {
		letters[k] = tagFor(server)
	}
	served := func(sep string, pad int) sweepCol {
		c := sweepCol{head: strings.Join(letters, sep), cells: make([]string, n)}
		c.minW = utf8.RuneCountInString(c.head) + pad // room for counts to grow
		for i := range n {
			c.cells[i] = "—"
			if len(m.runs[i]) > 0 {
				parts := make([]string, len(servers))
				for k, server := range servers {
					parts[k] = m.cell(i, "served."+server, format.Count)
				}
				c.cells[i] = strings.Join(parts, sep)
			}
		}
		return c
	}
	progress := sweepCol{key: "progress", head: "progress", cells: make([]string, n)}
	p95 := sweepCol{key: "p95 wait", head: "p95 wait", cells: make([]string, n), right: true}
	all4 := sweepCol{key: "all 4 right", head: "all 4 right", cells: make([]string, n), right: true}
	calls := sweepCol{key: "calls", head: "calls", cells: make([]string, n), right: true}
	front := sweepCol{head: "trade-off", cells: make([]string, n)}
	for i := range n {
		progress.cells[i], front.cells[i] = "waiting", "—"
		if len(m.runs[i]) > 0 {
			progress.cells[i] = fmt.Sprintf("%d/%d", m.emails[i], m.planned[i])
			front.cells[i] = "front"
			if m.dom[i] {
				front.cells[i] = "dominated"
			}
		}
		p95.cells[i] = m.cell(i, "p95_wait_outage_s", func(v float64) string { return format.Secs2(v) + " s" })
		all4.cells[i] = m.cell(i, "all4_right", func(v float64) string { return format.Percent1(v) + "%" })
		calls.cells[i] = m.cell(i, "calls_to_broken_outage", format.Count)
	}
	wide := func(cols []sweepCol) int {
		w := 0
		for _, c := range cols {
			w += 2 + c.width()
		}
		return w
	}
	frozenOf := func() []sweepCol { return append([]sweepCol{num}, sets...) }
	figs = []sweepCol{progress, served(" / ", 4), p95, all4, calls, front}
	if wide(frozenOf())+wide(figs) <= m.width {
		return frozenOf(), figs
	}
	for k := range sets {
		sets[k].head = strings.TrimPrefix(sets[k].head, "--")
	}
	figs = []sweepCol{served("/", 2), p95, all4, calls, front, progress}
	for k := range sets {
		// Until the figures a user sorts by and the trade-off (front or
		// dominated: the sweep's answer) fit; the rest scroll.
		if wide(frozenOf())+wide(figs[:5])+3 <= m.width { // 3: the "  →" saying more scroll in
			break
		}
		sets[k].head = shortHead(sets[k].head)
	}
	return frozenOf(), figs
}

// shortHead shortens a setting's head ("primary-timeout") to its first
// "-"-separated word and an ellipsis ("primary…"), or leaves it.
func shortHead(head string) string {
	if i := strings.IndexAny(head, "- "); i > 0 {
		return head[:i] + "…"
	}
	return head
}

// shown is how many figure columns fit from hoff.
func (m *sweepModel) shown(frozen, figs []sweepCol, hoff int) int {
	used := 0
	for _, c := range frozen {
		used += 2 + c.width()
	}
	n := 0
	rest := figs[min(hoff, len(figs)):]
	for k, c := range rest {
		room := m.width
		if k < len(rest)-1 {
			room -= 3 // the "  →" saying more columns scroll in
		}
		if used+2+c.width() > room && n > 0 {
			break
		}
		used += 2 + c.width()
		n++
	}
	return n
}

// reveal scrolls the figures sideways so the sorted column is in view.
func (m *sweepModel) reveal() {
	frozen, figs := m.columns()
	name := sweepSortKeys[m.sortBy].name
	idx := slices.IndexFunc(figs, func(c sweepCol) bool { return c.key == name })
	if idx < 0 {
		return
	}
	if idx < m.hoff {
		m.hoff = idx
	}
	for m.hoff < idx && idx >= m.hoff+m.shown(frozen, figs, m.hoff) {
		m.hoff++
	}
}

func (m *sweepModel) View() string {
	var b strings.Builder
	frozen, figs := m.columns()
	m.hoff = min(m.hoff, len(figs)-1)
	shown := m.shown(frozen, figs, m.hoff)
	top := m.topLines(frozen, m.hoff > 0 || m.hoff+shown < len(figs))
	// The front rule (scoring.Dominated) is the table's and the report's.
	note := m.wrap(m.faint, "Figures are medians over the runs so far; dominated: another setting of the outage is better "+
		"on p95 wait, all 4 right or calls beyond the repeats' spread (all 4 right: and by McNemar's test), worse on none.")
	if m.showHelp {
		note = m.wrap(m.faint, sweepHelp)
	}
	b.WriteString(strings.Join(top, "\n") + "\n\n")
	// The settings come first, a column per flag that varies, so rows
	// never read the same however narrow the terminal; the figures from
	// hoff follow, as many as fit.
	cols := append(append([]sweepCol(nil), frozen...), figs[m.hoff:m.hoff+shown]...)
	m.writeRows(&b, cols, m.hoff+shown < len(figs), max(m.height-len(top)-len(note)-3, 3))
	b.WriteString(strings.Join(note, "\n"))
	return b.String()
}

// wrap wraps text at words to the width, each line in style.
func (m *sweepModel) wrap(style lipgloss.Style, text string) []string {
	lines := plain.WrapWords(text, max(m.width, 20))
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	return lines
}

// sortWords says how the rows are sorted: best or worst first, or in the
// grid's order.
func (m *sweepModel) sortWords() string {
	switch {
	case sweepSortKeys[m.sortBy].figure == "" && m.reverse:
		return "in reverse grid order"
	case sweepSortKeys[m.sortBy].figure == "":
		return "in grid order"
	case m.reverse:
		return "worst first"
	}
	return "best first"
}

// topLines are the lines above the table: the title with the progress,
// the settings every row shares, the shortened column heads spelt out and
// the keys (←/→ among them when more columns than fit).
func (m *sweepModel) topLines(frozen []sweepCol, moreColumns bool) []string {
	done, planned, started := 0, 0, 0
	for i := range m.src.Labels {
		done += m.emails[i]
		planned += m.planned[i]
		started += len(m.runs[i])
	}
	top := m.wrap(m.bold, fmt.Sprintf("drill sweep  %d settings, %d runs started, %d/%d emails answered · sorted by %s, %s",
		len(m.src.Labels), started, done, planned, sweepSortKeys[m.sortBy].name, m.sortWords()))
	if len(m.fixed) > 0 {
		top = append(top, m.wrap(m.faint, "every row: "+strings.Join(m.fixed, " "))...)
	}
	var short []string // the settings' heads shortened to fit, spelt out
	for k, name := range m.setCols {
		if h := frozen[1+k].head; strings.HasSuffix(h, "…") {
			short = append(short, h+" "+flagHead(name))
		}
	}
	if len(short) > 0 {
		top = append(top, m.wrap(m.faint, "columns: "+strings.Join(short, " · "))...)
	}
	keys := "↑/↓ select · enter: the marked row's run dashboard · s: sort by the next column · r: reverse · ? help · q: quit (stops the sweep)"
	if moreColumns {
		keys = "←/→ more columns · " + keys
	}
	return append(top, m.wrap(m.faint, keys)...)
}

// writeRows writes the table's head (with → when more columns follow) and
// up to rows rows around the selected one, with a line saying which rows
// show when not all do.
func (m *sweepModel) writeRows(b *strings.Builder, cols []sweepCol, more bool, rows int) {
	line := func(cell func(c sweepCol) string) string {
		var sb strings.Builder
		for _, c := range cols {
			sb.WriteString("  " + c.cell(cell(c)))
		}
		return strings.TrimRight(sb.String(), " ")
	}
	head := line(func(c sweepCol) string { return c.head })
	if more {
		head += "  →"
	}
	b.WriteString(m.bold.Render(clip(head, m.width)) + "\n")
	first := min(max(m.sel-rows/2, 0), max(len(m.order)-rows, 0))
	for pos := first; pos < min(first+rows, len(m.order)); pos++ {
		i := m.order[pos]
		l := clip(line(func(c sweepCol) string { return c.cells[i] }), m.width)
		if pos == m.sel {
			l = m.bold.Render(">" + l[1:])
		}
		b.WriteString(l + "\n")
	}
	if len(m.order) > rows {
		b.WriteString(m.faint.Render(fmt.Sprintf("  rows %d–%d of %d", first+1, min(first+rows, len(m.order)), len(m.order))) + "\n")
	}
}

// sweepHelp is the sweep dashboard's key help (?), shown in place of the
// note under the table.
const sweepHelp = "Keys: ↑/↓ or k/j select · g/home first · G/end last · enter: the marked row's run dashboard (q there comes back) · " +
	"s: sort by the next column (setting, p95 wait, all 4 right, calls, progress) · r: reverse the order · " +
	"←/→: scroll the figure columns when they do not all fit · ? or esc: close this help · q or ctrl+c: quit (stops the sweep)"

// settingColumns splits the rows' labels ("--primary-timeout 1s --trip
// count") into a column per flag, in the order first seen ("fault KEY" for
// --fault KEY=V), and each row's value of each (empty when a row does not
// set it); the flags every row sets alike are fixed ("--cooldown 10s"),
// not columns. A label that is not flags is one column, "setting".
func settingColumns(labels []string) (cols []string, vals [][]string, fixed []string) {
	parsed := make([]map[string]string, len(labels))
	for i, l := range labels {
		parsed[i] = map[string]string{}
		f := strings.Fields(l)
		for k := 0; k < len(f); k++ {
			name, ok := strings.CutPrefix(f[k], "--")
			if !ok || k+1 >= len(f) {
				parsed[i] = nil
				break
			}
			v := f[k+1]
			k++
			if name == "fault" {
				key, val, _ := strings.Cut(v, "=")
				name, v = "fault "+key, val
			}
			if _, seen := parsed[i][name]; !seen && !slices.Contains(cols, name) {
				cols = append(cols, name)
			}
			parsed[i][name] = v
		}
		if parsed[i] == nil {
			cols, vals = []string{"setting"}, make([][]string, len(labels))
			for j, l := range labels {
				vals[j] = []string{l}
			}
			return cols, vals, nil
		}
	}
	// Flags every row sets alike tell no row apart: they leave the table
	// for a line of their own (with one row, nothing varies: all stay).
	varies := func(c string) bool {
		for i := range parsed {
			if parsed[i][c] != parsed[0][c] {
				return true
			}
		}
		return false
	}
	if len(labels) > 1 {
		var keep []string
		for _, c := range cols {
			if varies(c) {
				keep = append(keep, c)
			} else if parsed[0][c] != "" {
				fixed = append(fixed, flagHead(c)+" "+parsed[0][c])
			}
		}
		cols = keep
	}
	vals = make([][]string, len(labels))
	for i := range labels {
		vals[i] = make([]string, len(cols))
		for k, c := range cols {
			vals[i][k] = parsed[i][c]
		}
	}
	return cols, vals, fixed
}

// flagHead is a settings column's head: the flag as typed ("--trip",
// "--fault status").
func flagHead(col string) string {
	if col == "setting" {
		return col
	}
	return "--" + col
}

// clip cuts a plain table line to width columns (at least 20) at the last
// column boundary (two spaces) that fits, ending in "…", so no cell is cut
// in the middle; a line without one is cut at the width.
func clip(line string, width int) string {
	w := max(width, 20)
	if lipgloss.Width(line) <= w {
		return line
	}
	cut := string([]rune(line)[:w-1])
	if i := strings.LastIndex(strings.TrimRight(cut, " "), "  "); i > 0 {
		cut = strings.TrimRight(cut[:i], " ") + " "
	}
	return cut + "…"
}

// Sweep shows the sweep dashboard until the user quits: one row per
// setting, filling in as its runs go (progress, served counts, p95 wait
// during the outage, all-4-right, calls to the broken model), sortable;
// enter opens the selected setting's first run (src.Open, or the full
// dashboard, read-only: the sweep steers its runs), and quitting that
// returns here.
// If ctx ends first, ctx's error is returned.
func Sweep(ctx context.Context, src SweepSource, opts Options) error {
	if src.Logs == nil {
		return errors.New("sweep dashboard: no runs")
	}
	term := opts.Terminal()
	var st sweepState
	for {
		m := newSweepModel(src, 0, st, term.Renderer)
		how, err := RunProgram(ctx, "sweep dashboard", m, term, opts)
		switch {
		case err != nil:
			return err
		case how == Interrupted, m.open < 0:
			return nil
		}
		st = sweepState{sortBy: m.sortBy, reverse: m.reverse, sel: m.sel}
		if src.Open != nil {
			err = src.Open(ctx, m.open)
		} else {
			_, err = Run(ctx, Source{Log: src.Logs(m.open)[0]}, opts)
		}
		if err != nil {
			return err
		}
	}
}

// SweepRecorded shows a finished sweep in the sweep dashboard, its rows
// filled in from its journals: labels name the rows, runs[row] are the
// indexes into paths of the row's journals. Enter replays a setting's first
// run in the replay dashboard (as drill replay, at 1×).
func SweepRecorded(ctx context.Context, labels []string, runs [][]int, paths []string, opts Options) error {
	logs := make([]*event.Log, len(paths))
	events := make([][]event.Event, len(paths))
	for i, p := range paths {
		j, err := journal.ReadFileContext(ctx, p)
		if err != nil {
			return fmt.Errorf("reading the sweep's run back: %w", err)
		}
		events[i] = j.Events
		logs[i] = event.NewLog(j.Header.Start)
		for _, e := range j.Events {
			logs[i].AppendRecorded(e)
		}
		logs[i].Close()
	}
	src := SweepSource{
		Labels: labels,
		Logs: func(row int) []*event.Log {
			var out []*event.Log
			for _, k := range runs[row] {
				out = append(out, logs[k])
			}
			return out
		},
		Open: func(ctx context.Context, row int) error {
			return Replay(ctx, events[runs[row][0]], ReplayOptions{Options: opts})
		},
	}
	if err := Sweep(ctx, src, opts); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
