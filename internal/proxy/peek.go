package proxy

import (
	"bytes"
	"encoding/json"

	"github.com/drill-dev/drill/internal/jsonscan"
)

// peek reads a request body's model and whether it asks for a stream, as
// encoding/json decodes them into struct{Model string; Stream bool}: ""
// and false for a body that is not JSON or holds a field of another type.
// A body of the usual shape (an object whose "model" is a string and whose
// "stream", if there, is a boolean) is checked and read in one pass
// (peekFast); anything else goes to encoding/json (peekJSON).
func peek(body []byte) (model string, stream bool) {
	model, stream, valid, ok := peekFast(body)
	switch {
	case !valid:
		return "", false
	case ok:
		return model, stream
	}
	return peekJSON(body)
}

// peekJSON is peek through encoding/json.
func peekJSON(body []byte) (model string, stream bool) {
	var head struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	if json.Unmarshal(body, &head) != nil {
		return "", false
	}
	return head.Model, head.Stream
}

// peekFast checks body as encoding/json.Valid does (valid) and reads its
// model and stream, or reports false (ok) for what it leaves to
// encoding/json: a body that is not an object, a key encoding/json would
// match without its exact spelling (another case, an escape, a byte past
// ASCII), a model that is not a string or a stream that is not a boolean
// (null included), a string it does not unescape.
func peekFast(body []byte) (model string, stream, valid, ok bool) {
	ok = true
	valid, object := jsonscan.Members(body, func(key, value []byte) {
		switch {
		case string(key) == "model":
			m, text := jsonText(value)
			model, ok = m, ok && text
		case string(key) == "stream":
			v, boolean := jsonBool(value)
			stream, ok = v, ok && boolean
		case bytes.EqualFold(key, []byte("model")) || bytes.EqualFold(key, []byte("stream")) || !plainKey(key):
			ok = false
		}
	})
	return model, stream, valid, ok && valid && object
}

// plainKey reports whether an object's key, as written between its
// quotes, is ASCII without escapes: encoding/json matches it to a field by
// its bytes.
func plainKey(key []byte) bool {
	return ascii(key) && bytes.IndexByte(key, '\\') < 0
}

// jsonText is a JSON string value's text, unescaped; false for any other
// value, and for a string jsonscan.Unescape declines.
func jsonText(value []byte) (string, bool) {
	if len(value) < 2 || value[0] != '"' {
		return "", false
	}
	return jsonscan.UnescapeString(value[1 : len(value)-1])
}

// jsonBool is a JSON true or false; false for any other value.
func jsonBool(value []byte) (v, ok bool) {
	switch string(value) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// ascii reports whether b is all ASCII.
func ascii(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
