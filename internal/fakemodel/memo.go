package fakemodel

import (
	"container/list"
	"sync"
)

// lru is a cache of values by string key, bounded in bytes: the keys' length
// plus what each value says it costs plus a fixed overhead per entry. It
// evicts the least recently used entries to stay under its bound. A key
// longer than maxKey is never stored. It is safe for concurrent use.
type lru[V any] struct {
	mu       sync.Mutex
	maxBytes int
	maxKey   int
	cost     func(V) int
	bytes    int
	order    *list.List // front = most recently used; elements hold *lruEntry[V]
	byKey    map[string]*list.Element
}

type lruEntry[V any] struct {
	key  string
	val  V
	size int
}

// lruEntryOverhead is what one entry costs beyond its key and value: the map
// slot, the list element and the entry struct, roughly.
const lruEntryOverhead = 160

func newLRU[V any](maxBytes, maxKey int, cost func(V) int) *lru[V] {
	return &lru[V]{maxBytes: maxBytes, maxKey: maxKey, cost: cost, order: list.New(), byKey: map[string]*list.Element{}}
}

// Get returns the value stored for key and marks it recently used.
func (c *lru[V]) Get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*lruEntry[V]).val, true
}

// Put stores val for key, evicting old entries to stay within the bound.
func (c *lru[V]) Put(key string, val V) {
	if len(key) > c.maxKey {
		return
	}
	size := len(key) + c.cost(val) + lruEntryOverhead
	if size > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		e := el.Value.(*lruEntry[V])
		c.bytes += size - e.size
		e.val, e.size = val, size
		c.order.MoveToFront(el)
	} else {
		c.byKey[key] = c.order.PushFront(&lruEntry[V]{key: key, val: val, size: size})
		c.bytes += size
	}
	for c.bytes > c.maxBytes {
		el := c.order.Back()
		e := el.Value.(*lruEntry[V])
		c.order.Remove(el)
		delete(c.byKey, e.key)
		c.bytes -= e.size
	}
}

// Bytes is the cache's current size by its own accounting.
func (c *lru[V]) Bytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// Len is the number of entries.
func (c *lru[V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byKey)
}
