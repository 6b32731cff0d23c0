package triage

import (
	"strings"
	"sync"

	"github.com/drill-dev/drill/internal/answer"
)

// maxParsed bounds the answers Parse keeps: the built-in data set's 120
// emails, answered by a handful of models, give a few hundred distinct
// answers; a cache that fills up is emptied and fills again.
const maxParsed = 4096

// maxParsedLen is the longest content Parse keeps: a triage answer is
// about a hundred bytes; a longer content (a model that rambles) is parsed
// every time rather than held.
const maxParsedLen = 1024

// parseResult is what Parse returned for one content. Both parts are
// values nothing changes: an answer of four strings and an error.
type parseResult struct {
	a   answer.Answer
	err error
}

// parseCache maps contents to what Parse made of them, for every goroutine
// of the process.
type parseCache struct {
	mu sync.RWMutex
	m  map[string]parseResult
}

// parsed is the process's cache.
var parsed parseCache

func (c *parseCache) get(content string) (parseResult, bool) {
	if len(content) > maxParsedLen {
		return parseResult{}, false
	}
	c.mu.RLock()
	r, ok := c.m[content]
	c.mu.RUnlock()
	return r, ok
}

func (c *parseCache) put(content string, r parseResult) {
	if len(content) > maxParsedLen {
		return
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxParsed {
		c.m = make(map[string]parseResult)
	}
	c.m[strings.Clone(content)] = r // its own copy: content may be part of a bigger string
	c.mu.Unlock()
}
