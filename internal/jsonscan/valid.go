package jsonscan

import "encoding/binary"

// MaxDepth is the deepest nesting of objects and arrays Valid accepts:
// encoding/json's limit, past which it reports an error.
const MaxDepth = 10000

// Valid reports whether b is one JSON value with only white space around
// it, exactly as encoding/json.Valid does: the same grammar, the same
// nesting limit (MaxDepth), and, like it, no check that a string's bytes
// are UTF-8 (only that they are not control bytes). It reads a string's
// plain bytes eight at a time, so a body of long texts costs little more
// than a copy.
func Valid(b []byte) bool {
	var small [64]byte
	stack := small[:0] // the open objects ('{') and arrays ('['), innermost last
	i := Space(b, 0)
	for {
		// A value starts at i.
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case '{', '[':
			open := b[i]
			if stack = append(stack, open); len(stack) > MaxDepth {
				return false
			}
			i = Space(b, i+1)
			if i >= len(b) || b[i] != open+2 { // not '}' or ']' at once
				if open == '{' {
					if i = member(b, i); i < 0 {
						return false
					}
				}
				continue
			}
			stack = stack[:len(stack)-1] // an empty object or array
			i++
		case '"':
			if i = stringEnd(b, i+1); i < 0 {
				return false
			}
		case 't':
			if i = literal(b, i, "true"); i < 0 {
				return false
			}
		case 'f':
			if i = literal(b, i, "false"); i < 0 {
				return false
			}
		case 'n':
			if i = literal(b, i, "null"); i < 0 {
				return false
			}
		default:
			if i = NumberEnd(b, i); i < 0 {
				return false
			}
		}
		if i, stack = closeValues(b, i, stack); i < 0 {
			return false
		}
		if len(stack) == 0 {
			return i == len(b)
		}
	}
}

// closeValues reads what follows a value that ends at i: white space, then
// the ends of the objects and arrays it closes, up to a comma (past which
// it returns the index of the next value, after an object's next key) or
// the end of the text. It returns -1 for anything else.
func closeValues(b []byte, i int, stack []byte) (int, []byte) {
	for {
		i = Space(b, i)
		if len(stack) == 0 {
			return i, stack
		}
		if i >= len(b) {
			return -1, stack
		}
		open := stack[len(stack)-1]
		switch b[i] {
		case ',':
			i = Space(b, i+1)
			if open == '{' {
				i = member(b, i)
			}
			return i, stack
		case open + 2: // '}' closes '{', ']' closes '['
			stack = stack[:len(stack)-1]
			i++
		default:
			return -1, stack
		}
	}
}

// member reads an object member's key and colon at i and returns the index
// of its value, or -1.
func member(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	if i = stringEnd(b, i+1); i < 0 {
		return -1
	}
	if i = Space(b, i); i >= len(b) || b[i] != ':' {
		return -1
	}
	return Space(b, i+1)
}

// literal reads the literal word at i and returns the index past it, or -1.
func literal(b []byte, i int, word string) int {
	if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// Bytes repeated in each of a word's eight lanes, for stringEnd.
const (
	lanes01   = 0x0101010101010101
	lanes80   = 0x8080808080808080
	lanesQt   = lanes01 * '"'
	lanesBack = lanes01 * '\\'
	lanes20   = lanes01 * 0x20
)

// special reports whether any of the eight bytes in w is a quote, a
// backslash or a control byte (below 0x20): the bytes a string's plain run
// ends at. Each test is exact as to whether some byte matches, though not
// as to which.
func special(w uint64) bool {
	q, s := w^lanesQt, w^lanesBack
	zero := (q-lanes01) & ^q | (s-lanes01) & ^s | (w-lanes20) & ^w
	return zero&lanes80 != 0
}

// stringEnd checks the JSON string whose text starts at i (just after its
// opening quote) as encoding/json does: no control bytes, only the escapes
// JSON has, any other byte as it is. It returns the index past the closing
// quote, or -1.
func stringEnd(b []byte, i int) int {
	for {
		for len(b)-i >= 8 && !special(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		for i < len(b) && b[i] >= 0x20 && b[i] != '"' && b[i] != '\\' {
			i++
		}
		if i >= len(b) || b[i] < 0x20 {
			return -1
		}
		if b[i] == '"' {
			return i + 1
		}
		if i = escapeEnd(b, i+1); i < 0 {
			return -1
		}
	}
}

// escapeEnd checks the escape whose letter is at i (just after its
// backslash) and returns the index past it, or -1.
func escapeEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 1
	case 'u':
		if _, ok := hex4(b[i+1:]); ok {
			return i + 5
		}
	}
	return -1
}
