// Package tui is drill's live dashboard (bubbletea, bubbles and lipgloss
// v1). It is a reader of a run's event log and owns no drill logic: it polls
// the log with a cursor on a tick, folds the events into one scoring.Fold
// (so every figure matches `drill run --json`), and renders the header with
// the headline figures, the Emails, Breaker, Calls and Quality panes (the
// Calls charts, breaker strips and time axis on shared columns), the summary
// and the footer, with the help as an overlay. Each pane is a component
// that owns its size and state: one layout function sizes them on a resize
// or when a pane is toggled, Update refreshes their content, and View only
// draws it. Run shows a live drill, which Controls can steer; Replay shows a
// recorded one. Every dashboard here (and tui/proxyview) starts its
// program through RunProgram.
package tui
