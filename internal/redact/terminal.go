package redact

import (
	"io"
	"unicode/utf8"

	"github.com/drill-dev/drill/internal/format"
)

// Terminal is text that came from input (a policy, model or client-supplied
// name, a journal's header) made safe to print on a terminal: its secrets
// redacted (String) and its control characters removed (Controls), so an
// escape sequence in a name cannot clear the screen, move the cursor or
// retitle the window.
func Terminal(s string) string {
	return String(format.Clean(s)) // controls first: one inside a key must not hide it
}

// TerminalWriter is a writer for the text drill's commands print (tables,
// summaries, timelines, reports): each write with its control characters
// removed but its newlines and tabs (format.CleanLines) and its secrets
// redacted (String). A UTF-8 character split across writes is held until
// its last byte comes. The dashboards, which draw with escape sequences of
// their own, write the terminal directly.
type TerminalWriter struct {
	w       io.Writer
	partial []byte // the start of a character the last write cut
}

// NewTerminalWriter returns w behind a TerminalWriter.
func NewTerminalWriter(w io.Writer) *TerminalWriter { return &TerminalWriter{w: w} }

// Unwrap is the writer t writes to: a terminal's width and whether it is
// one are read from it.
func (t *TerminalWriter) Unwrap() io.Writer { return t.w }

// Write writes p cleaned; it reports len(p) written when the cleaned text
// was.
func (t *TerminalWriter) Write(p []byte) (int, error) {
	b := p
	if len(t.partial) > 0 {
		b = append(t.partial, p...)
		t.partial = nil
	}
	// Hold back an incomplete character at the end (at most 3 bytes).
	cut := len(b)
	for back := 1; back <= 3 && back <= len(b); back++ {
		c := b[len(b)-back]
		if c < 0x80 {
			break
		}
		if c >= 0xc0 { // the first byte of a character
			if !utf8.FullRune(b[len(b)-back:]) {
				cut = len(b) - back
			}
			break
		}
	}
	t.partial = append(t.partial[:0], b[cut:]...)
	if _, err := io.WriteString(t.w, TerminalLines(string(b[:cut]))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// TerminalLines is text of several lines as a terminal may get it: every
// control character removed but its newlines and tabs (format.CleanLines),
// and its secrets redacted (String).
func TerminalLines(s string) string { return String(format.CleanLines(s)) }
