package journal

import (
	"strconv"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/jsonscan"
)

// decodeEventLine decodes an event line of the shape the writer writes
// field by field (appendEventLine) into e without reflection: the
// writer's prefix, then the event's plain fields, a result, a truth,
// usage and fault parameters, each key once and spelled exactly, every
// string without escapes or with escapes jsonscan.Unescape reads, every
// number one JSON's grammar allows and its field holds. ok is false for
// anything else — another key (a run, a breaker, a window, a key in
// another case, a newer drill's field), a duplicate key, a null, a number
// out of range or with a fraction where a whole one is wanted, invalid
// UTF-8, a lone surrogate, text after the object, text that is not JSON —
// and e is then to be reset and the line given to encoding/json, which
// decides. So where it decodes, it decodes as encoding/json does
// (TestDecodeEventLineIsEncodingJSON, FuzzDecodeEventLine), and it never
// accepts a line encoding/json refuses.
//
// Why: encoding/json's reflective decoding was two thirds of the CPU of
// reading a journal, and a history or report of 2,000 journals reads 1.7
// million event lines.
func decodeEventLine(line []byte, e *event.Event, in *interner) (ok bool) {
	if len(line) < len(eventPrefix) || string(line[:len(eventPrefix)]) != string(eventPrefix) {
		return false
	}
	d := lineDecoder{b: line, i: len(eventPrefix), in: in}
	if !d.members(false, func(key []byte) (uint64, bool) { return d.eventField(key, e) }) {
		return false
	}
	d.space()
	return d.i == len(d.b)
}

// lineDecoder reads one line from its position i.
type lineDecoder struct {
	b  []byte
	i  int
	in *interner
}

func (d *lineDecoder) space() { d.i = jsonscan.Space(d.b, d.i) }

// byte consumes c after white space.
func (d *lineDecoder) byte(c byte) bool {
	d.space()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// members reads an object's members, from just after its opening brace
// (or, for the event, after the writer's prefix) to its closing brace,
// calling field with the decoder at each member's value. field reads the
// value and returns the key's bit, so a key seen twice declines; empty
// allows an object with no members.
func (d *lineDecoder) members(empty bool, field func(key []byte) (bit uint64, ok bool)) bool {
	if empty && d.byte('}') {
		return true
	}
	var seen uint64
	for {
		d.space()
		key, ok := d.key()
		if !ok || !d.byte(':') {
			return false
		}
		d.space()
		bit, ok := field(key)
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		if !d.byte(',') {
			return d.byte('}')
		}
	}
}

// key reads a string of printable ASCII with no escapes, as every key of
// the event schema and of fault parameters is written; any other key
// declines (encoding/json folds case and replaces invalid UTF-8 in keys).
func (d *lineDecoder) key() ([]byte, bool) {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return nil, false
	}
	start := d.i + 1
	for j := start; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			d.i = j + 1
			return d.b[start:j], true
		case c == '\\' || c < 0x20 || c >= 0x7f:
			return nil, false
		}
	}
	return nil, false
}

// str reads a string value as encoding/json decodes it, declining what
// jsonscan.Unescape declines (where encoding/json would write U+FFFD or
// refuse the line). Short strings without escapes are interned.
func (d *lineDecoder) str() (string, bool) {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return "", false
	}
	start := d.i + 1
	end := jsonscan.StringEnd(d.b, start)
	if end >= len(d.b) {
		return "", false
	}
	d.i = end + 1
	raw := d.b[start:end]
	if s, ok := d.in.plain(raw); ok {
		return s, true
	}
	return jsonscan.UnescapeString(raw)
}

// number reads a JSON number and returns its text.
func (d *lineDecoder) number() ([]byte, bool) {
	end := jsonscan.NumberEnd(d.b, d.i)
	if end < 0 {
		return nil, false
	}
	text := d.b[d.i:end]
	d.i = end
	return text, true
}

// int64 reads a whole number (no fraction or exponent) an int64 holds.
func (d *lineDecoder) int64() (int64, bool) {
	text, ok := d.number()
	if !ok {
		return 0, false
	}
	digits := text
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) > 18 { // past what 18 digits hold: strconv decides, as for encoding/json
		n, err := strconv.ParseInt(string(text), 10, 64)
		return n, err == nil
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false // a fraction or an exponent: not a whole number to encoding/json
		}
		n = n*10 + int64(c-'0')
	}
	if len(digits) < len(text) {
		n = -n
	}
	return n, true
}

// int reads a whole number an int holds.
func (d *lineDecoder) int() (int, bool) {
	n, ok := d.int64()
	if !ok || int64(int(n)) != n {
		return 0, false
	}
	return int(n), true
}

// duration reads a whole number of nanoseconds.
func (d *lineDecoder) duration() (time.Duration, bool) {
	n, ok := d.int64()
	return time.Duration(n), ok
}

// float reads a number as encoding/json reads it into a float64
// (strconv.ParseFloat); one out of range declines.
func (d *lineDecoder) float() (float64, bool) {
	text, ok := d.number()
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(text), 64)
	return v, err == nil
}

// bool reads true or false.
func (d *lineDecoder) bool() (bool, bool) {
	rest := d.b[d.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		d.i += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		d.i += 5
		return false, true
	}
	return false, false
}

// object reads an object value's members with field.
func (d *lineDecoder) object(field func(key []byte) (uint64, bool)) bool {
	return d.i < len(d.b) && d.b[d.i] == '{' && d.skipByte() && d.members(true, field)
}

func (d *lineDecoder) skipByte() bool { d.i++; return true }

// strMap reads an object of strings into a new map, the last of a
// repeated key kept, as encoding/json fills a map.
func (d *lineDecoder) strMap() (map[string]string, bool) {
	m := map[string]string{}
	ok := d.object(func(key []byte) (uint64, bool) {
		v, ok := d.str()
		if ok {
			m[d.in.str(key)] = v
		}
		return 0, ok // no bit: a repeated key is kept, not refused
	})
	return m, ok
}

// answer reads an email's answer (truth, result.answer).
func (d *lineDecoder) answer() (*emails.Answer, bool) {
	a := &emails.Answer{}
	ok := d.object(func(key []byte) (uint64, bool) {
		var s string
		var ok bool
		if s, ok = d.str(); !ok {
			return 0, false
		}
		switch string(key) {
		case "intent":
			a.Intent = s
			return 1 << 0, true
		case "order_number":
			a.OrderNumber = s
			return 1 << 1, true
		case "product":
			a.Product = s
			return 1 << 2, true
		case "urgency":
			a.Urgency = s
			return 1 << 3, true
		}
		return 0, false
	})
	return a, ok
}
