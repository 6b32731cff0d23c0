package tui

import (
	"github.com/charmbracelet/lipgloss"
)

// Styles holds every colour and text style the dashboard uses; all of them
// come from here. States are always written in words or symbols too, so the
// dashboard reads the same with NO_COLOR or the ASCII profile.
type Styles struct {
	r *lipgloss.Renderer

	Border      lipgloss.Style // pane borders
	FocusBorder lipgloss.Style // the focused pane's border
	Title       lipgloss.Style // pane titles
	FocusTitle  lipgloss.Style // the focused pane's title
	Dim         lipgloss.Style // labels and axes
	Bold        lipgloss.Style // headline figures
	Alert       lipgloss.Style // ACTIVE, OPEN, PAUSED, wrong fields
	Good        lipgloss.Style // right fields, probes that worked

	Primary lipgloss.Style // emails served by the primary model
	Backup  lipgloss.Style // emails served by the backup model
	Canned  lipgloss.Style // emails given the canned reply
	Error   lipgloss.Style // emails that got an error
	Waiting lipgloss.Style // emails still waiting
	Outage  lipgloss.Style // outage windows on time axes
	// OutageBg shades outage columns in charts (colour only; a strip of
	// dots under each chart marks them too).
	OutageBg lipgloss.Style

	Closed   lipgloss.Style // breaker closed
	Open     lipgloss.Style // breaker open
	HalfOpen lipgloss.Style // breaker half-open

	Selected lipgloss.Style // the selected email row's marker
}

// NewStyles builds the dashboard's styles for a renderer. The renderer
// decides the colour profile: it honours NO_COLOR, and tests pass one with
// the ASCII profile.
func NewStyles(r *lipgloss.Renderer) Styles {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	c := func(s string) lipgloss.Color { return lipgloss.Color(s) }
	ns := r.NewStyle
	return Styles{
		r:           r,
		Border:      ns().Foreground(c("240")),
		FocusBorder: ns().Foreground(c("75")),
		Title:       ns().Bold(true),
		FocusTitle:  ns().Bold(true).Foreground(c("75")),
		Dim:         ns().Foreground(c("245")),
		Bold:        ns().Bold(true),
		Alert:       ns().Bold(true).Foreground(c("203")),
		Good:        ns().Foreground(c("42")),

		Primary:  ns().Foreground(c("42")),
		Backup:   ns().Foreground(c("214")),
		Canned:   ns().Foreground(c("141")),
		Error:    ns().Foreground(c("196")),
		Waiting:  ns().Foreground(c("250")),
		Outage:   ns().Foreground(c("167")),
		OutageBg: ns().Background(c("52")),

		Closed:   ns().Foreground(c("42")),
		Open:     ns().Foreground(c("196")),
		HalfOpen: ns().Foreground(c("220")),

		Selected: ns().Bold(true).Foreground(c("75")),
	}
}

// served returns the style and bar glyph for who served an email ("" while
// it waits). Each has its own glyph so colour is never the only cue.
func (st Styles) served(by string) (lipgloss.Style, rune) {
	switch by {
	case "primary":
		return st.Primary, '█'
	case "backup":
		return st.Backup, '▓'
	case "canned":
		return st.Canned, '▒'
	case "error":
		return st.Error, '×'
	case "rejected":
		return st.Error, '!' // turned away by the worker pool: no call made
	default:
		return st.Waiting, '░'
	}
}

// breakerGlyph returns the style and strip glyph for a breaker state.
func (st Styles) breakerGlyph(state string) (lipgloss.Style, rune) {
	switch state {
	case stateOpen:
		return st.Open, '█'
	case stateHalfOpen:
		return st.HalfOpen, '▒'
	default:
		return st.Closed, '─'
	}
}

// stateWord is how a breaker state is written: loud when open.
func stateWord(state string) string {
	switch state {
	case stateOpen:
		return "OPEN"
	case stateHalfOpen:
		return "half-open"
	default:
		return "closed"
	}
}

// rungStyle is the colour of a rung's series: the primary's, or the
// backup's for any other model.
func (st Styles) rungStyle(rung string) lipgloss.Style {
	if rung == "primary" {
		return st.Primary
	}
	return st.Backup
}
