package redact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Terminal is text that came from input (a policy, model or client-supplied
// name, a journal's header) made safe to print on a terminal: its secrets
// redacted (String) and its control characters removed (Controls), so an
// escape sequence in a name cannot clear the screen, move the cursor or
// retitle the window.
func Terminal(s string) string {
	return String(Controls(s)) // controls first: one inside a key must not hide it
}

// Controls removes control characters from s: C0 and C1 controls (ESC,
// CSI, BEL, carriage return, newline...), DEL, the bidirectional overrides
// and isolates that reorder what follows them, and bytes that are not
// UTF-8. A tab becomes a space. Text with none is returned unchanged.
func Controls(s string) string {
	if !hasControl(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case r == utf8.RuneError && size == 1, isControl(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			// Non-ASCII: decode to tell a control (C1, bidi) or a bad
			// byte from an ordinary letter.
			if c < 0x80 {
				return true
			}
			for _, r := range s[i:] {
				if r == utf8.RuneError || isControl(r) || r < 0x20 || r == 0x7f {
					return true
				}
			}
			return false
		}
	}
	return false
}

// isControl: C0, DEL, C1, and the bidirectional formatting characters.
func isControl(r rune) bool {
	return unicode.IsControl(r) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f
}
