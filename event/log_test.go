package event

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"
)

func TestLogStampsInOrder(t *testing.T) {
	l := NewLog(time.Now())
	for i := range 5 {
		e := l.Append(Event{Kind: EmailSent, Email: i + 1})
		if e.Seq != int64(i) {
			t.Fatalf("seq %d, want %d", e.Seq, i)
		}
	}
	evs := l.Events()
	for i := 1; i < len(evs); i++ {
		if evs[i].At < evs[i-1].At {
			t.Fatalf("offsets run backwards: %v then %v", evs[i-1].At, evs[i].At)
		}
	}
	recorded := l.AppendRecorded(Event{Kind: RunEnd, At: time.Hour})
	if recorded.At != time.Hour || recorded.Seq != 5 {
		t.Fatalf("recorded event stamped %+v, want its own offset kept and seq 5", recorded)
	}
}

// TestCursorNeverLosesEvents: many writers, a slow reader; the reader sees
// every event exactly once, in sequence order, then io.EOF.
func TestCursorNeverLosesEvents(t *testing.T) {
	l := NewLog(time.Now())
	const writers, each = 8, 500
	cur := l.Cursor()
	got := make(chan []Event)
	go func() {
		var all []Event
		for {
			evs, err := cur.Next(context.Background())
			if errors.Is(err, io.EOF) {
				got <- all
				return
			}
			all = append(all, evs...)
			time.Sleep(time.Microsecond) // a slow reader
		}
	}()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				l.Append(Event{Kind: AttemptStart, Email: w, Attempt: i})
			}
		})
	}
	wg.Wait()
	l.Close()
	all := <-got
	if len(all) != writers*each {
		t.Fatalf("reader saw %d events, want %d", len(all), writers*each)
	}
	for i, e := range all {
		if e.Seq != int64(i) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
	}
	if l.Append(Event{Kind: EmailSent}).Seq != 0 || l.Len() != writers*each {
		t.Fatal("append after Close changed the log")
	}
}

func TestCursorPollAndCancel(t *testing.T) {
	l := NewLog(time.Now())
	c := l.Cursor()
	if evs := c.Poll(); len(evs) != 0 {
		t.Fatalf("poll on empty log: %v", evs)
	}
	l.Append(Event{Kind: RunStart})
	if evs := c.Poll(); len(evs) != 1 {
		t.Fatalf("first poll: %v, want the one event", evs)
	}
	if evs := c.Poll(); len(evs) != 0 {
		t.Fatalf("second poll: %v, want nothing new", evs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Next on a cancelled context: %v", err)
	}
}

func TestTransient(t *testing.T) {
	for o, want := range map[Outcome]bool{OK: false, Timeout: true, HTTP5xx: true, ConnError: true,
		HTTP4xx: false, HTTP429: false, Invalid: false, Canceled: false, BreakerOpen: false} {
		if o.Transient() != want {
			t.Errorf("%s.Transient() = %v, want %v", o, !want, want)
		}
	}
}

// TestLogAcrossChunks: a log of two and a half chunks reads back whole and
// in order through Events, Batches, Poll and Next, each read starting
// inside one chunk and ending in another.
func TestLogAcrossChunks(t *testing.T) {
	l := NewLog(time.Now())
	const n = 2*chunkSize + chunkSize/2
	c := l.Cursor()
	var polled []Event
	for i := range n {
		l.Append(Event{Kind: EmailSent, Email: i + 1})
		if i%1000 == 999 {
			polled = append(polled, c.Poll()...)
		}
	}
	polled = append(polled, c.Poll()...)
	l.Close()
	var batched []Event
	batches := 0
	l.Batches(func(evs []Event) { batched = append(batched, evs...); batches++ })
	var next []Event
	nc := l.Cursor()
	for {
		evs, err := nc.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		next = append(next, evs...)
	}
	if batches != 3 {
		t.Errorf("Batches called fn %d times, want 3 (one per chunk)", batches)
	}
	for name, got := range map[string][]Event{"Events": l.Events(), "Batches": batched, "Poll": polled, "Next": next} {
		if len(got) != n {
			t.Fatalf("%s read %d events, want %d", name, len(got), n)
		}
		for i, e := range got {
			if e.Seq != int64(i) || e.Email != i+1 {
				t.Fatalf("%s: event %d is seq %d email %d", name, i, e.Seq, e.Email)
			}
		}
	}
}
