// Package jsonscan reads the few values a hot path needs straight from a
// JSON text that is already known to be valid, without reflection: an
// object's members, an array's elements, a plain string, a string's text,
// a small unsigned integer, a boolean, or any value skipped. Every method
// reports false on anything it does not read directly, so its caller hands
// that text to encoding/json (or the SDK) instead: the scanner is a fast
// path, never the only reader. Space, StringEnd and Unescape are its steps
// for readers that keep their own position. Valid checks a text as
// encoding/json.Valid does, and Members checks it and hands over an
// object's members in the same pass, for a reader that takes untrusted
// text.
package jsonscan

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// Scanner walks a valid JSON text from its start.
type Scanner struct {
	b []byte
	i int
}

// New returns a Scanner at the start of b.
func New(b []byte) *Scanner { return &Scanner{b: b} }

// Space returns the index of the first byte at or after i in b that is
// not JSON white space (len(b) if none is).
func Space(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// StringEnd returns the index of the quote that ends the JSON string whose
// text starts at i in b (just after its opening quote), or len(b) if the
// string does not end.
func StringEnd(b []byte, i int) int {
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return len(b)
		}
		q := i + j
		k := q - 1
		for k >= i && b[k] == '\\' {
			k--
		}
		if (q-1-k)%2 == 0 { // an even run of backslashes: the quote is not escaped
			return q
		}
		i = q + 1
	}
}

// ws passes over white space.
func (s *Scanner) ws() { s.i = Space(s.b, s.i) }

// End reports whether only white space is left.
func (s *Scanner) End() bool {
	s.ws()
	return s.i == len(s.b)
}

// eat consumes c after white space.
func (s *Scanner) eat(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// Object reads an object, calling member after each key with the scanner
// at the member's value, which member must consume.
func (s *Scanner) Object(member func(key []byte) bool) bool {
	if !s.eat('{') {
		return false
	}
	if s.eat('}') {
		return true
	}
	for {
		key, ok := s.PlainString()
		if !ok || !s.eat(':') {
			return false
		}
		s.ws()
		if !member(key) {
			return false
		}
		if s.eat(',') {
			s.ws()
			continue
		}
		return s.eat('}')
	}
}

// Array reads an array, calling elem with the scanner at each element.
func (s *Scanner) Array(elem func() bool) bool {
	if !s.eat('[') {
		return false
	}
	if s.eat(']') {
		return true
	}
	for {
		s.ws()
		if !elem() {
			return false
		}
		if s.eat(',') {
			continue
		}
		return s.eat(']')
	}
}

// Uint reads a number of plain digits at the scanner (no sign, fraction
// or exponent), at most 18 of them so it fits an int.
func (s *Scanner) Uint() (int, bool) {
	n, digits := 0, 0
	for ; s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9'; s.i++ {
		n = n*10 + int(s.b[s.i]-'0')
		digits++
	}
	return n, digits > 0 && digits <= 18
}

// Bool reads true or false.
func (s *Scanner) Bool() (v, ok bool) {
	rest := s.b[s.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		s.i += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		s.i += 5
		return false, true
	}
	return false, false
}

// PlainString reads a string with no escapes and returns its bytes.
func (s *Scanner) PlainString() ([]byte, bool) {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false
	}
	start := s.i + 1
	for j := start; j < len(s.b); j++ {
		switch s.b[j] {
		case '\\':
			return nil, false
		case '"':
			s.i = j + 1
			return s.b[start:j], true
		}
	}
	return nil, false
}

// Text reads a string value and returns it unescaped; it declines what
// Unescape declines.
func (s *Scanner) Text() (string, bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return "", false
	}
	start := s.i + 1
	j := StringEnd(s.b, start)
	if j >= len(s.b) {
		return "", false
	}
	s.i = j + 1
	out, ok := Unescape(s.b[start:j])
	if !ok {
		return "", false
	}
	return string(out), true
}

// Unescape decodes the text between a JSON string's quotes. It declines
// invalid UTF-8, control bytes, unknown escapes and lone surrogates, where
// decoders differ (encoding/json writes U+FFFD for the last). Text with no
// escapes is returned as it is, not copied.
func Unescape(raw []byte) ([]byte, bool) {
	if bytes.IndexByte(raw, '\\') < 0 {
		for _, c := range raw {
			if c < 0x20 {
				return nil, false
			}
		}
		return raw, utf8.Valid(raw)
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		j := i
		for j < len(raw) && raw[j] != '\\' {
			if raw[j] < 0x20 {
				return nil, false
			}
			j++
		}
		out = append(out, raw[i:j]...)
		if j == len(raw) {
			break
		}
		if j+1 >= len(raw) {
			return nil, false
		}
		i = j + 2
		switch e := raw[j+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(raw[i:])
			if !ok {
				return nil, false
			}
			i += 4
			if utf16.IsSurrogate(r) {
				if len(raw)-i < 6 || raw[i] != '\\' || raw[i+1] != 'u' {
					return nil, false
				}
				lo, ok := hex4(raw[i+2:])
				if !ok {
					return nil, false
				}
				i += 6
				if r = utf16.DecodeRune(r, lo); r == utf8.RuneError {
					return nil, false
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return nil, false
		}
	}
	return out, utf8.Valid(out)
}

// hex4 reads the four hex digits of a \u escape at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// Skip passes over one value of any kind.
func (s *Scanner) Skip() bool {
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '"':
		j := StringEnd(s.b, s.i+1)
		if j >= len(s.b) {
			return false
		}
		s.i = j + 1
		return true
	case '{', '[':
		depth := 0
		for j := s.i; j < len(s.b); j++ {
			switch s.b[j] {
			case '"':
				s.i = j
				if !s.Skip() {
					return false
				}
				j = s.i - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i = j + 1
					return true
				}
			}
		}
		return false
	default: // a number, true, false or null
		start := s.i
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return s.i > start
			}
			s.i++
		}
		return s.i > start
	}
}

// NumberEnd returns the index just past the JSON number that starts at i
// in b, read by JSON's grammar (a minus, then 0 or digits not starting
// with 0, then an optional fraction and exponent), or -1 when no valid
// number starts there or one runs on into a digit, as "01" does. Unlike
// the Scanner's methods it assumes nothing of b: a reader of untrusted
// text checks a number with it before converting it.
func NumberEnd(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i+1)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return -1
		}
		i = j
	}
	if i < len(b) && b[i] >= '0' && b[i] <= '9' {
		return -1
	}
	return i
}

// digits returns the index of the first byte at or after i in b that is
// not a decimal digit.
func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}
