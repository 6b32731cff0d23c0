// Package jsonscan reads the few values a hot path needs straight from a
// JSON text that is already known to be valid, without reflection: an
// object's members, an array's elements, a plain string, a string's text,
// a small unsigned integer, a boolean, or any value skipped. Every method
// reports false on anything it does not read directly, so its caller hands
// that text to encoding/json (or the SDK) instead: the scanner is a fast
// path, never the only reader. Space and StringEnd are its two steps for
// readers that keep their own position.
package jsonscan

import (
	"bytes"
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

// Text reads a string value in valid UTF-8 whose escapes are all of the
// two-character kind, and returns it unescaped.
func (s *Scanner) Text() (string, bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return "", false
	}
	start := s.i + 1
	j := StringEnd(s.b, start)
	if j >= len(s.b) {
		return "", false
	}
	raw := s.b[start:j]
	s.i = j + 1
	if !utf8.Valid(raw) {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw), true
	}
	out := make([]byte, 0, len(raw))
	for k := 0; k < len(raw); k++ {
		c := raw[k]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		k++
		switch raw[k] {
		case '"', '\\', '/':
			out = append(out, raw[k])
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
		default: // \u: left to the SDK
			return "", false
		}
	}
	return string(out), true
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
