// Package tui is drill's live dashboard (bubbletea, bubbles, lipgloss v1 and
// ntcharts). It is a reader of a run's event log and owns no drill logic:
// it polls the log with a cursor on a tick, folds the events into one
// scoring.Fold (so every figure matches `drill run --json`) plus per-email
// rows, breaker strips and calls-per-second series, and renders the header,
// the Emails, Breaker, Calls and Quality panes, the summary row and the key
// help. Run shows a live drill, which Controls can steer; Replay shows a
// recorded one.
package tui
