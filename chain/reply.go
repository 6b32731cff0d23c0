package chain

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/openai/openai-go/v3"
)

// reply is what a rung's plain call reads of a chat completion: how many
// choices it has and the first one's message content. The SDK decodes the
// response body into it (option.WithResponseBodyInto) after its own checks
// of the status and content type, as it would into an openai.ChatCompletion.
//
// The SDK's reflective decoding of a whole ChatCompletion was the largest
// cost of a call against a fast endpoint, for two figures. readReply reads
// them directly from bodies of the usual shape; any other body (an escaped
// key, a \u escape or invalid UTF-8 in the content, a repeated or missing
// field, a value of another type) is decoded by the SDK exactly as before,
// into completion.
type reply struct {
	choices    int
	content    string
	completion *openai.ChatCompletion // the SDK's decoding, when sdk is set
	sdk        bool
}

// UnmarshalJSON reads b, a syntactically valid JSON value (the SDK's
// json.Decoder has checked it).
func (r *reply) UnmarshalJSON(b []byte) error {
	if n, content, ok := readReply(b); ok {
		r.choices, r.content = n, content
		return nil
	}
	r.sdk = true
	return json.Unmarshal(b, &r.completion)
}

// first returns the number of choices and the first choice's content, as
// the SDK's decoding gives them. Like a nil *ChatCompletion, a body of null
// has no choices to count and panics here as it did before.
func (r *reply) first() (choices int, content string) {
	if !r.sdk {
		return r.choices, r.content
	}
	choices = len(r.completion.Choices)
	if choices > 0 {
		content = r.completion.Choices[0].Message.Content
	}
	return choices, content
}

// readReply reads the number of choices and the first choice's message
// content from b, a valid JSON value. ok is false unless b is an object
// whose "choices" member is an array of objects, each with one "message"
// object holding one "content" string, with no key escaped anywhere it
// looks, no repeated member it reads and no \u escape or invalid UTF-8 in
// the content: then the figures are the ones the SDK's decoding gives.
func readReply(b []byte) (choices int, content string, ok bool) {
	s := jsonScan{b: b}
	seen := false
	ok = s.object(func(key []byte) bool {
		if string(key) != "choices" {
			return s.skip()
		}
		if seen {
			return false
		}
		seen = true
		return s.array(func() bool {
			c, good := s.choice()
			if good && choices == 0 {
				content = c
			}
			choices++
			return good
		})
	})
	if !ok || !seen || !s.end() {
		return 0, "", false
	}
	return choices, content, true
}

// jsonScan walks a valid JSON text; every method reports false on anything
// readReply does not read directly.
type jsonScan struct {
	b []byte
	i int
}

func (s *jsonScan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// end reports whether only white space is left.
func (s *jsonScan) end() bool {
	s.ws()
	return s.i == len(s.b)
}

// eat consumes c after white space.
func (s *jsonScan) eat(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// object reads an object, calling member after each key with the scanner
// at the member's value, which member must consume.
func (s *jsonScan) object(member func(key []byte) bool) bool {
	if !s.eat('{') {
		return false
	}
	if s.eat('}') {
		return true
	}
	for {
		key, ok := s.plainString()
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

// array reads an array, calling elem with the scanner at each element.
func (s *jsonScan) array(elem func() bool) bool {
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

// choice reads one choice object: its message's content.
func (s *jsonScan) choice() (content string, ok bool) {
	seen := false
	ok = s.object(func(key []byte) bool {
		if string(key) != "message" {
			return s.skip()
		}
		if seen {
			return false
		}
		seen = true
		var good bool
		content, good = s.message()
		return good
	})
	return content, ok && seen
}

// message reads one message object: its content string.
func (s *jsonScan) message() (content string, ok bool) {
	seen := false
	ok = s.object(func(key []byte) bool {
		if string(key) != "content" {
			return s.skip()
		}
		if seen {
			return false
		}
		seen = true
		var good bool
		content, good = s.text()
		return good
	})
	return content, ok && seen
}

// plainString reads a string with no escapes and returns its bytes.
func (s *jsonScan) plainString() ([]byte, bool) {
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

// text reads a string value in valid UTF-8 whose escapes are all of the
// two-character kind, and returns it unescaped.
func (s *jsonScan) text() (string, bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return "", false
	}
	start, escapes := s.i+1, false
	j := start
	for ; j < len(s.b) && s.b[j] != '"'; j++ {
		if s.b[j] == '\\' {
			escapes = true
			j++
		}
	}
	if j >= len(s.b) {
		return "", false
	}
	raw := s.b[start:j]
	s.i = j + 1
	if !utf8.Valid(raw) {
		return "", false
	}
	if !escapes {
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

// skip passes over one value of any kind.
func (s *jsonScan) skip() bool {
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '"':
		for j := s.i + 1; j < len(s.b); j++ {
			switch s.b[j] {
			case '\\':
				j++
			case '"':
				s.i = j + 1
				return true
			}
		}
		return false
	case '{', '[':
		depth := 0
		for j := s.i; j < len(s.b); j++ {
			switch s.b[j] {
			case '"':
				s.i = j
				if !s.skip() {
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
