package format

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clean removes control characters from text that came from input, so
// that printing it cannot move the cursor, clear the screen or retitle the
// window: C0 and C1 controls (ESC, CSI, BEL...), DEL, the bidirectional
// overrides and isolates that reorder what follows them, and bytes that
// are not UTF-8. A tab, newline or carriage return becomes a space. Text
// with none is returned unchanged.
func Clean(s string) string { return clean(s, false) }

// CleanLines is Clean for text of several lines (a table, a report): its
// newlines and tabs are kept; a carriage return, which could overwrite a
// printed line, is removed with the other controls.
func CleanLines(s string) string { return clean(s, true) }

// clean removes what Clean removes; keepLines keeps newlines and tabs
// (and drops a carriage return) where Clean makes each a space.
func clean(s string, keepLines bool) string {
	if !hasControl(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case keepLines && (r == '\t' || r == '\n'):
			b.WriteRune(r)
		case !keepLines && (r == '\t' || r == '\n' || r == '\r'):
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
