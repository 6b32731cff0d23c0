package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// Terminal is where a dashboard draws: the output it writes to, with the
// renderer whose colour profile every style of that dashboard must use.
type Terminal struct {
	// Out is the dashboard's output: Options.Output, else stdout.
	Out io.Writer
	// Renderer detects the output's colour profile (and honours NO_COLOR).
	Renderer *lipgloss.Renderer
}

// Terminal returns the output the options name (stdout by default) and a
// renderer for it, for building a dashboard's styles before it starts.
func (o Options) Terminal() Terminal {
	out := o.Output
	if out == nil {
		out = os.Stdout
	}
	return Terminal{Out: out, Renderer: lipgloss.NewRenderer(out)}
}

// Outcome says how a dashboard's program ended when it ended without error.
type Outcome int

const (
	// Quit: the model quit (q, esc, or the run it shows ended it).
	Quit Outcome = iota
	// Interrupted: SIGINT reached the program rather than a ctrl+c key;
	// callers treat it as quit.
	Interrupted
)

// RunProgram runs one of drill's dashboards — the live and replay
// dashboard, the fleet pane, the sweep table, the proxy's view — with the
// options all of them share: the context (its end kills the program), the
// output, the input when it is not stdin, the alternate screen unless
// opts.NoAltScreen, bubbletea's SIGINT/SIGTERM handling and its restoring
// of the terminal on exit or panic; extra adds a dashboard's own options
// (the mouse). name labels an error. It returns how the program ended;
// ctx's error if ctx ended it; or the program's error, wrapped.
func RunProgram(ctx context.Context, name string, m tea.Model, term Terminal, opts Options, extra ...tea.ProgramOption) (Outcome, error) {
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithOutput(term.Out)}
	if opts.Input != nil {
		popts = append(popts, tea.WithInput(opts.Input))
	}
	if !opts.NoAltScreen {
		popts = append(popts, tea.WithAltScreen())
	}
	popts = append(popts, extra...)
	_, err := tea.NewProgram(m, popts...).Run()
	switch {
	case err == nil:
		return Quit, nil
	case errors.Is(err, tea.ErrInterrupted):
		return Interrupted, nil
	case ctx.Err() != nil:
		return Quit, ctx.Err()
	}
	return Quit, fmt.Errorf("%s: %w", name, err)
}
