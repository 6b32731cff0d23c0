// Package proxyview is drill proxy's live view: the application's traffic
// through the proxy (each request's wait, status, fault, time to first
// token and tokens), calls and failures per model, and the outage timeline,
// with `o` to start or end an outage by hand. It folds the proxy's event
// log with scoring.ProxyTally and borrows the drill dashboard's styles.
package proxyview

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/proxy"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
)

// Controls start and end outages by hand; *proxy.Proxy implements them.
type Controls interface {
	StartOutage(kind string) error
	EndOutage() bool
}

var _ Controls = (*proxy.Proxy)(nil)

// Options configure the dashboard.
type Options struct {
	Title       string    // the header's first line: listen address and upstream
	Schedule    string    // the scheduled outage timeline, as the banner prints it
	Output      io.Writer // default os.Stdout
	Input       io.Reader // default the terminal
	NoAltScreen bool      // tests
	Tick        time.Duration
	// Fleet, when the proxy is a fleet member (--coordinate), names it
	// ("fleet staging as pod-a"): the view then shows its link to Redis
	// and the members it marked lost.
	Fleet string
}

// FleetLabel names a fleet member in Options.Fleet: "fleet NAME as
// MEMBER", or "" for a proxy alone (no fleet).
func FleetLabel(fleet, member string) string {
	if fleet == "" {
		return ""
	}
	return "fleet " + fleet + " as " + member
}

// kinds are the outages `o` offers, by the digit that picks them: the two
// triage outages, then the chat workload's faults on a client's own
// tool-calling traffic.
var kinds = []string{"busy", "hang", "overloaded", "malformed-tool-call", "loop"}

// maxRecent bounds the requests the view keeps for its table.
const maxRecent = 500

// Model is the dashboard's bubbletea model. Update does no IO beyond the
// controls; View changes no state.
type Model struct {
	st     tui.Styles
	title  string
	sched  string
	cur    *event.Cursor
	log    *event.Log
	ctl    Controls
	tick   time.Duration
	tally  *scoring.ProxyTally
	recent []scoring.ProxyRequest // newest last
	choose bool                   // o pressed: waiting for 1 or 2
	now    time.Duration
	msg    string // the last control's result
	fleet  string // Options.Fleet
	w, h   int
}

// New returns the dashboard's model for a proxy's log.
func New(st tui.Styles, log *event.Log, ctl Controls, opts Options) *Model {
	tick := opts.Tick
	if tick <= 0 {
		tick = 200 * time.Millisecond
	}
	return &Model{st: st, title: opts.Title, sched: opts.Schedule, cur: log.Cursor(), log: log, ctl: ctl, tick: tick,
		tally: scoring.NewProxyTally(), fleet: opts.Fleet, w: 100, h: 30}
}

type tickMsg time.Time

func (m *Model) wait() tea.Cmd {
	return tea.Tick(m.tick, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.wait(), func() tea.Msg { return tickMsg(time.Now()) })
}

// Add folds events into the view's state.
func (m *Model) Add(evs []event.Event) {
	for _, e := range evs {
		if r, ok := m.tally.Add(e); ok {
			m.recent = append(m.recent, r)
			if len(m.recent) > maxRecent {
				m.recent = slices.Delete(m.recent, 0, len(m.recent)-maxRecent)
			}
		}
		m.now = max(m.now, e.At)
	}
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tickMsg:
		m.Add(m.cur.Poll())
		m.now = max(m.now, time.Time(msg).Sub(m.log.Start()))
		if m.tally.Closed {
			return m, tea.Quit
		}
		return m, m.wait()
	case tea.KeyMsg:
		return m, m.key(msg.String())
	}
	return m, nil
}

func (m *Model) key(k string) tea.Cmd {
	switch {
	case k == "q" || k == "ctrl+c":
		return tea.Quit
	case m.choose && k == "esc":
		m.choose, m.msg = false, ""
	case m.choose && len(k) == 1 && k[0] >= '1' && int(k[0]-'1') < len(kinds):
		m.choose = false
		kind := kinds[k[0]-'1']
		if err := m.ctl.StartOutage(kind); err != nil {
			m.msg = err.Error()
		} else {
			m.msg = kind + " started by hand"
		}
	case k == "o" && m.ctl != nil:
		if m.tally.Active.Fault != "" {
			if m.ctl.EndOutage() {
				m.msg = m.tally.Active.Fault + " ended by hand"
			}
			return nil
		}
		m.choose, m.msg = true, ""
	}
	return nil
}

// View implements tea.Model.
func (m *Model) View() string { return Render(m.st, m, m.w, m.h) }

// Render draws the dashboard at width w and height h.
func Render(st tui.Styles, m *Model, w, h int) string {
	var b []string
	head := st.Title.Render("drill proxy") + "  " + m.title + "  " + st.Dim.Render(format.Cell(m.now, 1))
	b = append(b, head)
	state := st.Good.Render("no outage")
	if m.tally.Active.Fault != "" {
		how := "scheduled"
		if m.tally.Active.ByHand {
			how = "by hand"
		}
		state = st.Alert.Render("OUTAGE "+m.tally.Active.Fault) + " " + st.Dim.Render("("+how+")")
	}
	b = append(b, "now: "+state+"   "+st.Dim.Render("scheduled: ")+orNone(m.sched)+"   "+
		st.Dim.Render("so far: ")+orNone(strings.Join(plain.ProxyWindows(m.tally), ", ")))
	if m.fleet != "" {
		b = append(b, fleetLine(st, m.fleet, m.tally.Fleet))
	}
	b = append(b, "")
	b = append(b, st.Title.Render("Models"))
	lines := plain.ProxyModelLines(m.tally)
	if len(lines) == 0 {
		lines = []string{st.Dim.Render("no requests yet")}
	}
	for _, l := range lines {
		b = append(b, "  "+l)
	}
	if clients := plain.ProxyClientLines(m.tally); len(clients) > 0 {
		// Each client library, what its SDK profile predicts of the
		// outage it met, and what it did.
		b = append(b, "", st.Title.Render("Clients"))
		for _, l := range clients {
			b = append(b, "  "+l)
		}
	}
	b = append(b, "")
	b = append(b, st.Title.Render(fmt.Sprintf("Requests (%d, newest first)", m.tally.Requests)))
	b = append(b, st.Dim.Render(fmt.Sprintf("  %-6s %8s  %-16s %-6s %-10s %-6s %8s %8s %s", "#", "at", "model", "status", "outcome", "fault", "wait", "ttft", "tokens")))
	footer := footerLine(st, m)
	room := h - len(b) - 2
	for i := len(m.recent) - 1; i >= 0 && room > 0; i-- {
		b = append(b, "  "+row(st, m.recent[i]))
		room--
	}
	for ; room > 0; room-- {
		b = append(b, "")
	}
	b = append(b, "", footer)
	for i, l := range b {
		b[i] = lipgloss.NewStyle().MaxWidth(w).Render(l)
	}
	return strings.Join(b, "\n")
}

// fleetLine is a fleet member's link to Redis and the members it marked
// lost.
func fleetLine(st tui.Styles, label string, f scoring.ProxyFleetLink) string {
	link := st.Good.Render("Redis link up")
	if f.Down {
		link = st.Alert.Render("Redis link DOWN") + " " + st.Dim.Render("(playing the last known schedule, holding events)")
	}
	line := label + ": " + link
	if f.Downs > 0 {
		line += st.Dim.Render(fmt.Sprintf("   went down %d×, %d events held, %d dropped", f.Downs, f.Held, f.Dropped))
	}
	if len(f.Lost) > 0 {
		line += "   " + st.Alert.Render("lost: "+format.Text(strings.Join(f.Lost, ", ")))
	}
	return line
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func row(st tui.Styles, r scoring.ProxyRequest) string {
	status, fault, ttft, tokens := "-", "-", "-", "-"
	if r.Status != 0 {
		status = fmt.Sprint(r.Status)
	}
	if r.Fault != "" {
		fault = r.Fault
	}
	if r.TTFT > 0 {
		ttft = format.Cell(r.TTFT, 2)
	}
	if r.In+r.Out > 0 {
		tokens = fmt.Sprintf("%d/%d", r.In, r.Out)
	}
	model := redact.Terminal(r.Model) // the client's: no escape reaches the terminal
	if model == "" {
		model = format.Text(r.Path)
	}
	if len(model) > 16 {
		model = model[:15] + "…"
	}
	line := fmt.Sprintf("%-6d %8s  %-16s %-6s %-10s %-6s %8s %8s %s", r.ID, format.Cell(r.At, 2), model, status, r.Outcome, fault, format.Cell(r.Wait, 2), ttft, tokens)
	if r.Outcome != event.OK {
		return st.Alert.Render(line)
	}
	return line
}

func footerLine(st tui.Styles, m *Model) string {
	var help string
	switch {
	case m.choose:
		var opts []string
		for i, k := range kinds {
			opts = append(opts, fmt.Sprintf("%d %s", i+1, k))
		}
		help = "start an outage now: " + strings.Join(opts, " · ") + " · esc cancel"
	case m.tally.Active.Fault != "":
		help = "q quit · o end the outage now"
	default:
		help = "q quit · o start an outage now"
	}
	if m.msg != "" {
		help += "   " + st.Bold.Render(m.msg)
	}
	return st.Dim.Render(help)
}

// Run shows the dashboard until the user quits, the proxy's log closes or
// ctx ends.
func Run(ctx context.Context, log *event.Log, ctl Controls, opts Options) error {
	topts := tui.Options{Output: opts.Output, Input: opts.Input, NoAltScreen: opts.NoAltScreen}
	term := topts.Terminal()
	m := New(tui.NewStyles(term.Renderer), log, ctl, opts)
	if _, err := tui.RunProgram(ctx, "dashboard", m, term, topts); err != nil && ctx.Err() == nil {
		return err
	}
	return nil // quit, interrupted, or the proxy is stopping anyway
}
