package chain

import (
	"encoding/json"
	"sync"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/triage"
)

// maxBodies bounds a rung's body cache: a drill cycles through the built-in
// 120 emails or a team's file, so this holds every distinct email of any
// usual drill; past it, bodies are encoded on each call and not kept.
const maxBodies = 4096

// bodyKey is what triage.Params reads of an email (its user message is
// From, Subject and Body); the model is the rung's.
type bodyKey struct{ from, subject, body string }

// bodies caches a rung's encoded triage requests. Encoding the request
// (a system prompt of a few kilobytes and the schema, through the SDK's
// reflective encoder) was the largest cost of a call against a fast
// endpoint, and it is the same bytes for the same model and email every
// time.
type bodies struct {
	mu sync.RWMutex
	m  map[bodyKey]json.RawMessage
}

// params returns the triage request for e to model: triage.Params, encoded
// once by the SDK's own encoder and sent as those bytes (param.Override),
// so the wire bytes are exactly what triage.Params would send. A rung has
// one model, so the email alone keys the cache.
func (c *bodies) params(model string, e emails.Email) openai.ChatCompletionNewParams {
	k := bodyKey{e.From, e.Subject, e.Body}
	c.mu.RLock()
	raw, ok := c.m[k]
	c.mu.RUnlock()
	if !ok {
		p := triage.Params(model, e)
		b, err := p.MarshalJSON()
		if err != nil {
			// The SDK meets the same error and reports it as it always has.
			return p
		}
		raw = b
		c.mu.Lock()
		if c.m == nil {
			c.m = make(map[bodyKey]json.RawMessage)
		}
		if len(c.m) < maxBodies {
			c.m[k] = raw
		}
		c.mu.Unlock()
	}
	return param.Override[openai.ChatCompletionNewParams](raw)
}
