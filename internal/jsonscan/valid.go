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
	i := valueEnd(b, Space(b, 0), 0)
	return i >= 0 && Space(b, i) == len(b)
}

// Members checks b as Valid does and, when b is an object, calls member
// with each of its members in order: the key as written between its quotes
// (escapes not decoded) and the value's JSON text. It reports whether b is
// valid, and whether it is an object; member may have been called for the
// members of an object that turns out not to be valid.
func Members(b []byte, member func(key, value []byte)) (valid, object bool) {
	i := Space(b, 0)
	if i >= len(b) || b[i] != '{' {
		return Valid(b), false
	}
	if i = Space(b, i+1); i < len(b) && b[i] == '}' {
		return Space(b, i+1) == len(b), true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false, true
		}
		k := i + 1
		if i = stringEnd(b, k); i < 0 {
			return false, true
		}
		key := b[k : i-1]
		if i = Space(b, i); i >= len(b) || b[i] != ':' {
			return false, true
		}
		v := Space(b, i+1)
		if i = valueEnd(b, v, 1); i < 0 {
			return false, true
		}
		member(key, b[v:i])
		if i = Space(b, i); i >= len(b) {
			return false, true
		}
		switch b[i] {
		case ',':
			i = Space(b, i+1)
		case '}':
			return Space(b, i+1) == len(b), true
		default:
			return false, true
		}
	}
}

// valueEnd checks the JSON value that starts at i, within depth objects
// and arrays, and returns the index just past it, or -1.
func valueEnd(b []byte, i, depth int) int {
	var small [64]byte
	stack := small[:0] // the open objects ('{') and arrays ('['), innermost last
	for {
		// A value starts at i.
		if i >= len(b) {
			return -1
		}
		switch b[i] {
		case '{', '[':
			open := b[i]
			if stack = append(stack, open); depth+len(stack) > MaxDepth {
				return -1
			}
			i = Space(b, i+1)
			if i >= len(b) || b[i] != open+2 { // not '}' or ']' at once
				if open == '{' {
					if i = member(b, i); i < 0 {
						return -1
					}
				}
				continue
			}
			stack = stack[:len(stack)-1] // an empty object or array
			i++
		case '"':
			i = stringEnd(b, i+1)
		case 't':
			i = literal(b, i, "true")
		case 'f':
			i = literal(b, i, "false")
		case 'n':
			i = literal(b, i, "null")
		default:
			i = NumberEnd(b, i)
		}
		if i < 0 {
			return -1
		}
		if i, stack = closeValues(b, i, stack); i < 0 || len(stack) == 0 {
			return i
		}
	}
}

// closeValues reads what follows a value that ends at i, within the open
// objects and arrays of stack: white space and the ends of those it
// closes, up to a comma (past which it returns the index of the next
// value, after an object's next key) or the end of the outermost (past
// which it returns the index). It returns -1 for anything else.
func closeValues(b []byte, i int, stack []byte) (int, []byte) {
	for {
		if len(stack) == 0 {
			return i, stack
		}
		if i = Space(b, i); i >= len(b) {
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
