package event

import (
	"context"
	"io"
	"testing"
	"time"
)

// kept is how many chunks the log still holds.
func (l *Log) kept() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, c := range l.chunks {
		if c != nil {
			n++
		}
	}
	return n
}

// TestReleaseDropsWhatEveryCursorRead: with two cursors, chunks go once
// both have read them; the slow one holds them until it reads or closes;
// both still read every event, in order.
func TestReleaseDropsWhatEveryCursorRead(t *testing.T) {
	l := NewLog(time.Now())
	fast, slow := l.Cursor(), l.Cursor()
	l.Release()
	const n = 10 * chunkSize
	for i := range n {
		l.Append(Event{Kind: EmailSent, Email: i})
	}
	l.Close()
	read := func(c *Cursor, upTo int) int {
		got := 0
		for got < upTo {
			evs, err := c.Next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got += len(evs)
		}
		return got
	}
	if got := read(fast, n); got != n {
		t.Fatalf("fast cursor read %d events, want %d", got, n)
	}
	if k := l.kept(); k != 10 {
		t.Fatalf("%d chunks kept while the slow cursor has read nothing, want 10", k)
	}
	if got := read(slow, 4*chunkSize); got != 4*chunkSize {
		t.Fatalf("slow cursor read %d", got)
	}
	if k := l.kept(); k != 6 {
		t.Fatalf("%d chunks kept after both read 4 of 10, want 6", k)
	}
	slow.Close()
	if k := l.kept(); k != 1 {
		t.Fatalf("%d chunks kept after the slow cursor closed, want 1 (the one with the last event)", k)
	}
	late := l.Cursor()
	evs, err := late.Next(context.Background())
	if err != nil || len(evs) == 0 || evs[0].Seq != int64(n-chunkSize) {
		t.Fatalf("a cursor made after release starts at %v (%v), want the oldest kept event %d", evs, err, n-chunkSize)
	}
}

// TestReleaseKeepsOrder: a cursor reading while events are appended and
// released sees every sequence number once, in order.
func TestReleaseKeepsOrder(t *testing.T) {
	l := NewLog(time.Now())
	c := l.Cursor()
	l.Release()
	const n = 5*chunkSize + 17
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range n {
			l.Append(Event{Kind: EmailSent, Email: i})
		}
		l.Close()
	}()
	want := int64(0)
	for {
		evs, err := c.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if e.Seq != want {
				t.Fatalf("seq %d, want %d", e.Seq, want)
			}
			want++
		}
	}
	<-done
	if want != n {
		t.Fatalf("read %d events, want %d", want, n)
	}
	if k := l.kept(); k != 1 {
		t.Fatalf("%d chunks kept after the only cursor read everything, want 1", k)
	}
}

// TestWholeLogReadsPanicAfterRelease: Events and Batches cannot give a
// log whose start is gone.
func TestWholeLogReadsPanicAfterRelease(t *testing.T) {
	l := NewLog(time.Now())
	l.Release() // no cursor: everything but the last chunk goes at once
	for i := range 3 * chunkSize {
		l.Append(Event{Kind: EmailSent, Email: i})
	}
	l.Cursor().Close() // a cursor's close runs the release
	for name, read := range map[string]func(){
		"Events":  func() { l.Events() },
		"Batches": func() { l.Batches(func([]Event) {}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic on a released log", name)
				}
			}()
			read()
		}()
	}
}

// TestNoReleaseWithoutRelease: a log keeps everything unless told.
func TestNoReleaseWithoutRelease(t *testing.T) {
	l := NewLog(time.Now())
	c := l.Cursor()
	for i := range 3 * chunkSize {
		l.Append(Event{Kind: EmailSent, Email: i})
	}
	for len(c.Poll()) > 0 {
	}
	c.Close()
	if got := len(l.Events()); got != 3*chunkSize {
		t.Fatalf("Events has %d events, want %d", got, 3*chunkSize)
	}
}
