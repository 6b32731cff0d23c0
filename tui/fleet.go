package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/scoring"
)

// FleetSource is what the fleet dashboard (drill fleet) reads and steers.
type FleetSource struct {
	// Log is the fleet's one event log (events marked with replicas).
	Log *event.Log
	// Stop stops the fleet; nil makes the dashboard read-only.
	Stop func()
}

// RunFleet shows the fleet pane for a live drill fleet until the user
// quits: one row per replica with its breaker state, what it served, its
// calls to the broken model and whether it is on local breakers because
// the shared store is unreachable. Quitting (q, ctrl+c) while the fleet
// runs stops it; when it ends the pane stays on the final state.
func RunFleet(ctx context.Context, src FleetSource, opts Options) error {
	if src.Log == nil {
		return errors.New("fleet dashboard: no event log")
	}
	tick := opts.Tick
	if tick <= 0 {
		tick = 150 * time.Millisecond
	}
	term := opts.Terminal()
	m := &fleetModel{st: NewStyles(term.Renderer), src: src, cur: src.Log.Cursor(),
		fold: scoring.NewFleetFold(), tick: tick}
	m.pane.refresh(m.st, m.fold)
	how, err := RunProgram(ctx, "fleet dashboard", m, term, opts)
	if (err != nil || how == Interrupted || m.quit) && src.Stop != nil && !src.Log.Closed() {
		src.Stop()
	}
	return err
}

// fleetModel is the fleet pane's bubbletea model. Update folds the events
// the tick polled and refreshes the pane; View only draws what it holds.
type fleetModel struct {
	st   Styles
	src  FleetSource
	cur  *event.Cursor
	fold *scoring.FleetFold
	tick time.Duration
	pane fleetPane
	quit bool
}

// fleetPane is the fleet table as a component: it owns its width and the
// text it shows, refreshed from the fold's summary when events arrive or
// the window changes, not every frame.
type fleetPane struct {
	w    int // 0: as wide as the table needs
	text string
}

// SetSize sets the pane's width.
func (p *fleetPane) SetSize(w int) { p.w = w }

func (p *fleetPane) refresh(st Styles, f *scoring.FleetFold) {
	whole := f.Whole()
	p.text = RenderFleet(st, f.Summary(), whole.Elapsed(), whole.Done(), p.w)
}

func (m *fleetModel) Init() tea.Cmd { return m.next() }

func (m *fleetModel) next() tea.Cmd {
	return tea.Tick(m.tick, func(t time.Time) tea.Msg { return tickMsg{T: t} })
}

func (m *fleetModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tickMsg:
		if evs := m.cur.Poll(); len(evs) > 0 || m.pane.text == "" {
			m.fold.AddAll(evs)
			m.pane.refresh(m.st, m.fold)
		}
		return m, m.next()
	case tea.WindowSizeMsg:
		m.pane.SetSize(msg.Width)
		m.pane.refresh(m.st, m.fold)
	case tea.KeyMsg:
		switch msg.String() {
		case "q", "ctrl+c", "esc":
			m.quit = true
			return m, tea.Quit
		}
	}
	return m, nil
}

func (m *fleetModel) View() string { return m.pane.text }

// RenderFleet renders the fleet pane for a fleet summary at a width (0:
// as wide as it needs): a header, one row per replica with its breaker
// state, and a line naming the replicas on local breakers while the shared
// store is unreachable. States are written in words, so it reads the same
// without colour.
func RenderFleet(st Styles, s scoring.FleetSummary, elapsed time.Duration, done bool, width int) string {
	var b strings.Builder
	state := "running"
	if done {
		state = "finished: " + s.Fleet.Status
	}
	fmt.Fprintf(&b, "%s  %s\n", st.Title.Render(fmt.Sprintf("Fleet · %d replicas · %s store · %s routing", s.Replicas, s.BreakerStore, s.Routing)),
		st.Dim.Render(format.Dur(elapsed)+" · "+state+" · q quits"))
	fmt.Fprintf(&b, "outage %s · policy %s · served %s · calls to the broken model %d · breaker opens %d\n\n",
		s.Fleet.Outage, s.Fleet.Policy, plain.Served(s.Fleet.Served), s.Fleet.CallsToBrokenOutage, s.Fleet.BreakerOpens)
	fmt.Fprintf(&b, "%s\n", st.Dim.Render(fmt.Sprintf("%-8s %-10s %6s  %-20s %7s %11s %6s  %s",
		"replica", "breaker", "sent", "prim/back/cann/err", "broken", "first open", "opens", "store")))
	var local []string
	for _, r := range s.PerReplica {
		bs := r.BreakerState
		if bs == "" {
			bs = scoring.StateClosed
		}
		style := st.Closed
		switch bs {
		case scoring.StateOpen:
			style = st.Open
		case scoring.StateHalfOpen:
			style = st.HalfOpen
		}
		store := "own"
		if s.BreakerStore == "redis" {
			store = "shared"
			if r.StoreLocal {
				store = st.Alert.Render("LOCAL: store unreachable")
				local = append(local, fmt.Sprint(r.Replica))
			}
		}
		if r.StoreFallbacks > 0 {
			store += fmt.Sprintf(" (%d fallbacks)", r.StoreFallbacks)
		}
		fmt.Fprintf(&b, "%-8d %s %6d  %-20s %7d %11s %6d  %s\n", r.Replica, style.Render(fmt.Sprintf("%-10s", strings.ToUpper(bs))),
			r.EmailsSent, plain.Served(r.Served), r.CallsToBrokenOutage, format.Seconds(r.BreakerFirstOpenS), r.BreakerOpens, store)
	}
	if len(local) > 0 {
		fmt.Fprintf(&b, "\n%s\n", st.Alert.Render("Redis unreachable: replicas "+strings.Join(local, ", ")+" fall back to local breakers"))
	}
	out := b.String()
	if width > 0 {
		lines := strings.Split(out, "\n")
		for k, l := range lines {
			if lipgloss.Width(l) > width {
				lines[k] = lipgloss.NewStyle().MaxWidth(width).Render(l)
			}
		}
		out = strings.Join(lines, "\n")
	}
	return out
}
