package chain

import (
	"encoding/json"

	"github.com/openai/openai-go/v3"

	"github.com/drill-dev/drill/internal/jsonscan"
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
// the SDK's decoding gives them. A body of null decodes to no completion:
// no choices, an invalid answer like any other, not a crash of the drill.
func (r *reply) first() (choices int, content string) {
	if !r.sdk {
		return r.choices, r.content
	}
	if r.completion == nil {
		return 0, ""
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
// looks, no repeated member it reads and no lone surrogate or invalid UTF-8 in
// the content: then the figures are the ones the SDK's decoding gives.
func readReply(b []byte) (choices int, content string, ok bool) {
	s := jsonscan.New(b)
	seen := false
	ok = s.Object(func(key []byte) bool {
		if string(key) != "choices" {
			return s.Skip()
		}
		if seen {
			return false
		}
		seen = true
		return s.Array(func() bool {
			c, good := choice(s)
			if good && choices == 0 {
				content = c
			}
			choices++
			return good
		})
	})
	if !ok || !seen || !s.End() {
		return 0, "", false
	}
	return choices, content, true
}

// choice reads one choice object: its message's content.
func choice(s *jsonscan.Scanner) (content string, ok bool) {
	seen := false
	ok = s.Object(func(key []byte) bool {
		if string(key) != "message" {
			return s.Skip()
		}
		if seen {
			return false
		}
		seen = true
		var good bool
		content, good = message(s)
		return good
	})
	return content, ok && seen
}

// message reads one message object: its content string.
func message(s *jsonscan.Scanner) (content string, ok bool) {
	seen := false
	ok = s.Object(func(key []byte) bool {
		if string(key) != "content" {
			return s.Skip()
		}
		if seen {
			return false
		}
		seen = true
		var good bool
		content, good = s.Text()
		return good
	})
	return content, ok && seen
}
