package proxy

import (
	"bytes"
	"encoding/json"

	"github.com/drill-dev/drill/internal/jsonscan"
	"github.com/drill-dev/drill/internal/sse"
)

// completion is what the proxy reads of a non-streamed chat completion:
// whether it has choices (a "choices" member that is not null), and the
// usage it reports, if any (a "usage" member that is not null).
type completion struct {
	choices  bool
	usage    sse.Usage
	hasUsage bool
}

// readCompletion reads a non-streamed chat completion's body as
// encoding/json decodes it into struct{Choices json.RawMessage; Usage
// *sse.Usage} (completionJSON), in one pass for the usual shape
// (completionFast) and through encoding/json for anything else, whose
// error it returns.
func readCompletion(body []byte) (completion, error) {
	if c, ok := completionFast(body); ok {
		return c, nil
	}
	return completionJSON(body)
}

// completionJSON is readCompletion through encoding/json.
func completionJSON(body []byte) (completion, error) {
	var v struct {
		Choices json.RawMessage `json:"choices"`
		Usage   *sse.Usage      `json:"usage"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return completion{}, err
	}
	c := completion{choices: len(v.Choices) != 0 && string(v.Choices) != "null"}
	if v.Usage != nil {
		c.usage, c.hasUsage = *v.Usage, true
	}
	return c, nil
}

// completionFast checks body as encoding/json.Valid does and reads its
// choices and usage in the same pass, or reports false for what it leaves
// to encoding/json: text that is not JSON or not an object, a key
// encoding/json would match without its exact spelling (another case, an
// escape, a byte past ASCII), a second "usage" (encoding/json merges it
// into the first, or drops the first for a null), a usage that is neither
// an object nor null, a token count that is not plain digits.
func completionFast(body []byte) (c completion, ok bool) {
	ok, usages := true, 0
	valid, object := jsonscan.Members(body, func(key, value []byte) {
		switch {
		case string(key) == "choices":
			c.choices = string(value) != "null"
		case string(key) == "usage":
			usages++
			if string(value) != "null" {
				c.hasUsage = true
				ok = ok && usageFast(value, &c.usage)
			}
		case bytes.EqualFold(key, []byte("choices")) || bytes.EqualFold(key, []byte("usage")) || !plainKey(key):
			ok = false
		}
	})
	return c, ok && valid && object && usages <= 1
}

// usageFast reads a usage object's token counts into u from its JSON text
// (valid), or reports false as completionFast does.
func usageFast(value []byte, u *sse.Usage) bool {
	s := jsonscan.New(value)
	return s.Object(func(key []byte) bool {
		switch {
		case string(key) == "prompt_tokens":
			n, ok := s.Uint()
			u.PromptTokens = n
			return ok
		case string(key) == "completion_tokens":
			n, ok := s.Uint()
			u.CompletionTokens = n
			return ok
		case bytes.EqualFold(key, []byte("prompt_tokens")) || bytes.EqualFold(key, []byte("completion_tokens")) || !ascii(key):
			return false
		}
		return s.Skip()
	}) && s.End()
}
