package chain

import (
	"encoding/json"
	"sync"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/triage"
)

// maxBodies bounds the body cache: a drill cycles through the built-in 120
// emails or a team's file, for one or two models, so this holds every
// request of any usual drill. A cache that fills up is emptied and fills
// again with the requests of the drills that follow.
const maxBodies = 1024

// bodyKey is what triage.Params reads: the model and the email's From,
// Subject and Body (its user message).
type bodyKey struct{ model, from, subject, body string }

// bodies caches encoded triage requests. Encoding the request (a system
// prompt of a few kilobytes and the schema, through the SDK's reflective
// encoder) was the largest cost of a call against a fast endpoint, and it
// is the same bytes for the same model and email every time, in every
// drill of the process.
type bodies struct {
	mu sync.RWMutex
	m  map[bodyKey][]byte
}

// requestBodies is the process's cache: rungs are built afresh for each
// drill, the requests stay the same.
var requestBodies bodies

// encoded returns the SDK's encoding of triage.Params(model, e): the bytes
// the SDK sends as the request body. ok is false when the SDK cannot
// encode the request.
func (c *bodies) encoded(model string, e emails.Email) (body []byte, ok bool) {
	k := bodyKey{model, e.From, e.Subject, e.Body}
	c.mu.RLock()
	body, ok = c.m[k]
	c.mu.RUnlock()
	if ok {
		return body, true
	}
	body, err := triage.Params(model, e).MarshalJSON()
	if err != nil {
		return nil, false
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxBodies {
		c.m = make(map[bodyKey][]byte)
	}
	c.m[k] = body
	c.mu.Unlock()
	return body, true
}

// placeholder is the params of a call whose body is given by
// option.WithRequestBody: the SDK encodes them (an empty object, given as
// raw JSON so the encoding does not walk the params' fields) before the
// option replaces them.
var placeholder = param.Override[openai.ChatCompletionNewParams](json.RawMessage(`{}`))

// request returns the arguments of Chat.Completions.New that send
// triage.Params(model, e): the SDK's own encoding of it, kept from an
// earlier call when there is one, given as the request body
// (option.WithRequestBody, the same application/json body and the same
// replayable buffer for retries), with placeholder params. If the request
// cannot be encoded the params are triage.Params, so the SDK meets and
// reports the error as it always has.
func (c *bodies) request(model string, e emails.Email) (openai.ChatCompletionNewParams, []option.RequestOption) {
	body, ok := c.encoded(model, e)
	if !ok {
		return triage.Params(model, e), nil
	}
	return placeholder, []option.RequestOption{option.WithRequestBody("application/json", body)}
}
