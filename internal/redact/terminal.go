package redact

import "github.com/drill-dev/drill/internal/format"

// Terminal is text that came from input (a policy, model or client-supplied
// name, a journal's header) made safe to print on a terminal: its secrets
// redacted (String) and its control characters removed (Controls), so an
// escape sequence in a name cannot clear the screen, move the cursor or
// retitle the window.
func Terminal(s string) string {
	return String(format.Clean(s)) // controls first: one inside a key must not hide it
}
