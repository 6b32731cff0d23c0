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
// "stream", if there, is a boolean) is read in one pass over the members
// (peekFast); anything else goes to encoding/json (peekJSON). Validity is
// encoding/json's, checked by jsonscan.Valid.
func peek(body []byte) (model string, stream bool) {
	if !jsonscan.Valid(body) {
		return "", false
	}
	if model, stream, ok := peekFast(body); ok {
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

// peekFast reads a valid JSON body's model and stream, or reports false
// for what it leaves to encoding/json: a key encoding/json would match
// without its exact spelling (another case, an escape, a byte past ASCII),
// a model that is not a string or a stream that is not a boolean (null
// included), a string it does not unescape.
func peekFast(body []byte) (model string, stream, ok bool) {
	s := jsonscan.New(body)
	ok = s.Object(func(key []byte) bool {
		switch {
		case string(key) == "model":
			m, ok := s.Text()
			model = m
			return ok
		case string(key) == "stream":
			v, ok := s.Bool()
			stream = v
			return ok
		case bytes.EqualFold(key, []byte("model")) || bytes.EqualFold(key, []byte("stream")) || !ascii(key):
			return false
		}
		return s.Skip()
	})
	return model, stream, ok && s.End()
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
