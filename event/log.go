package event

import (
	"context"
	"io"
	"sync"
	"time"
)

// Log is an ordered, append-only event log. Appending never blocks on a
// reader; readers follow it with a Cursor at their own pace and never lose an
// event. Events are never changed once appended, so the slices handed to
// readers may be read without holding the lock.
//
// Events are stored in fixed-size chunks that never move: a long log grows
// without copying what it holds (a 100,000-email drill's log is about
// 640,000 events of 240 bytes; one growing slice would copy it again and
// again and, while it grew, hold it twice).
type Log struct {
	mu     sync.Mutex
	start  time.Time
	chunks [][]Event     // chunkSize events each (the first grows to it: firstChunk); every one but the last is full
	n      int           // events appended
	grown  chan struct{} // closed and replaced on an append after a reader took it
	// waited is set when a reader took grown to wait on: only then does
	// an append close it and make a new one, so appends with no reader
	// waiting allocate nothing but the event's slot.
	waited bool
	closed bool

	// cursors are the open cursors, and where each will read next.
	cursors map[*Cursor]struct{}
	// releasing is set by Release: chunks every open cursor has passed are
	// dropped, so a long run's memory does not grow with its length.
	releasing bool
	released  int // chunks dropped from the front (chunks[:released] are nil)
}

// chunkSize is the number of events per chunk (about 1 MiB).
const chunkSize = 4096

// firstChunk is the capacity the first chunk starts at: it doubles up to
// chunkSize as the log grows, so a short log (a 120-email drill logs about
// 800 events; a sweep runs thousands of them) does not allocate and clear
// a whole chunk. Growing moves the first chunk's events to a bigger array;
// views handed out earlier keep the old array, whose events are the same
// and never change.
const firstChunk = 256

// NewLog returns an empty log whose offsets count from start.
func NewLog(start time.Time) *Log {
	return &Log{start: start, grown: make(chan struct{})}
}

// Start is the time offsets count from.
func (l *Log) Start() time.Time { return l.start }

// Append stamps e with the next sequence number and its offset from the
// start (now), appends it and returns the stamped event.
func (l *Log) Append(e Event) Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	e.At = time.Since(l.start)
	// Offsets never run backwards, even if two goroutines race to the lock.
	if l.n > 0 {
		if last := l.at(l.n - 1); e.At < last.At {
			e.At = last.At
		}
	}
	return l.appendLocked(e)
}

// AppendRecorded appends an event that already has its offset, such as one
// read back from a journal. Its sequence number is reassigned.
func (l *Log) AppendRecorded(e Event) Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.appendLocked(e)
}

func (l *Log) appendLocked(e Event) Event {
	if l.closed {
		return e
	}
	e.Seq = int64(l.n)
	switch {
	case l.n == 0:
		l.chunks = append(l.chunks, make([]Event, 0, firstChunk))
	case l.n%chunkSize == 0:
		l.chunks = append(l.chunks, make([]Event, 0, chunkSize))
	}
	c := &l.chunks[len(l.chunks)-1]
	if len(*c) == cap(*c) { // the first chunk, still growing
		grown := make([]Event, len(*c), min(2*cap(*c), chunkSize))
		copy(grown, *c)
		*c = grown
	}
	*c = append(*c, e)
	l.n++
	if l.waited {
		close(l.grown)
		l.grown, l.waited = make(chan struct{}), false
	}
	return e
}

// at is event i; the caller holds the lock.
func (l *Log) at(i int) *Event { return &l.chunks[i/chunkSize][i%chunkSize] }

// Close marks the log complete: cursors return io.EOF once they have read
// everything. Appends after Close are dropped.
func (l *Log) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.closed = true
		close(l.grown)
	}
}

// Closed reports whether the log is complete.
func (l *Log) Closed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed
}

// Len is the number of events appended so far.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}

// Release makes the log drop every chunk of events all its open cursors
// have read, now and from then on, so a long run's memory does not grow
// with its length. Attach every reader first: a cursor made afterwards
// starts at the oldest event kept, and Events and Batches panic once a
// chunk is gone (fold the log with a cursor as it grows instead). A reader
// that stops early must Close its cursor, or it holds everything after it.
func (l *Log) Release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.releasing = true
	l.releaseLocked()
}

// Held is how many events the log keeps in memory: all it has appended,
// less those Release dropped.
func (l *Log) Held() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n - l.released*chunkSize
}

// releaseLocked drops the chunks below every open cursor, never the one
// holding the last event (Append reads it); the caller holds the lock.
func (l *Log) releaseLocked() {
	if !l.releasing {
		return
	}
	low := l.n
	for c := range l.cursors {
		low = min(low, c.next)
	}
	for end := (l.released + 1) * chunkSize; end <= low && end < l.n; end += chunkSize {
		l.chunks[l.released] = nil
		l.released++
	}
}

// Events returns the events appended so far. The slice must not be
// modified. A log longer than one chunk (4,096 events) is copied into one
// slice: to read a long log without the copy, use Batches or a Cursor.
// It panics if the log has released events (see Release).
func (l *Log) Events() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rangeLocked(0, l.n)
}

// Batches calls fn with the events appended so far, in order, a chunk at a
// time, without copying them: the way to fold a long log once it is done.
// fn must not modify the slices; events appended meanwhile are not included.
// It panics if the log has released events (see Release).
func (l *Log) Batches(fn func([]Event)) {
	l.mu.Lock()
	chunks, n := l.chunks, l.n
	if l.released > 0 {
		l.mu.Unlock()
		panic(errReleased)
	}
	l.mu.Unlock()
	for i := 0; n > 0; i++ {
		k := min(n, chunkSize)
		fn(chunks[i][:k:k])
		n -= k
	}
}

// rangeLocked returns events i..j-1, a view of one chunk when they lie in
// one, else a copy; the caller holds the lock.
func (l *Log) rangeLocked(i, j int) []Event {
	if i >= j {
		return nil
	}
	if i < l.released*chunkSize {
		panic(errReleased)
	}
	if c := i / chunkSize; (j-1)/chunkSize == c {
		lo, hi := i%chunkSize, (j-1)%chunkSize+1
		return l.chunks[c][lo:hi:hi]
	}
	out := make([]Event, 0, j-i)
	for i < j {
		c, lo := i/chunkSize, i%chunkSize
		hi := min(chunkSize, lo+j-i)
		out = append(out, l.chunks[c][lo:hi]...)
		i += hi - lo
	}
	return out
}

// errReleased is the panic of a read of events the log has released.
const errReleased = "event: the log has released events every cursor had read (Log.Release); follow it with a cursor instead"

// since returns c's events from c.next on and moves c past them, a
// channel closed when more arrive, and whether the log is closed. With
// oneChunk, it returns at most the rest of c.next's chunk, a view that
// needs no copy.
func (l *Log) since(c *Cursor, oneChunk bool) ([]Event, <-chan struct{}, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	evs, grown, closed := l.sinceLocked(c.next, oneChunk)
	if len(evs) > 0 {
		c.next += len(evs)
		l.releaseLocked()
	}
	return evs, grown, closed
}

func (l *Log) sinceLocked(i int, oneChunk bool) ([]Event, <-chan struct{}, bool) {
	n := l.n
	if i > n {
		i = n
	}
	if end := (i/chunkSize + 1) * chunkSize; oneChunk && n > end {
		n = end
	}
	if i == n && !l.closed {
		l.waited = true // the caller may wait on grown: the next append closes it
	}
	return l.rangeLocked(i, n), l.grown, l.closed
}

// Cursor returns a reader positioned at the first event (after Release,
// at the oldest event kept).
func (l *Log) Cursor() *Cursor {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := &Cursor{log: l, next: l.released * chunkSize}
	if l.cursors == nil {
		l.cursors = map[*Cursor]struct{}{}
	}
	l.cursors[c] = struct{}{}
	return c
}

// Cursor reads a Log in order. A Cursor is for one goroutine.
type Cursor struct {
	log  *Log
	next int // guarded by log.mu: Release reads every cursor's position
}

// Close says the reader is done: a log that releases events (Release) no
// longer keeps them for it. Reading after Close is an error of the caller.
func (c *Cursor) Close() {
	l := c.log
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.cursors, c)
	l.releaseLocked()
}

// Poll returns the events appended since the last read, without waiting.
func (c *Cursor) Poll() []Event {
	evs, _, _ := c.log.since(c, false)
	return evs
}

// Next waits for events after the last read and returns them, at most to
// the end of a chunk (4,096 events) at a time, so a reader that fell behind
// gets views of the log rather than copies: call it in a loop. It returns
// io.EOF when the log is closed and fully read, or ctx's error.
func (c *Cursor) Next(ctx context.Context) ([]Event, error) {
	for {
		evs, grown, closed := c.log.since(c, true)
		if len(evs) > 0 {
			return evs, nil
		}
		if closed {
			return nil, io.EOF
		}
		select {
		case <-grown:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
