package event

import (
	"context"
	"testing"
	"time"
)

// BenchmarkAppend appends events to a log the way a drill does, with one
// reader following it (as the journal writer does): the cost of an append
// and what it allocates, the log's growth included.
func BenchmarkAppend(b *testing.B) {
	l := NewLog(time.Now())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		c := l.Cursor()
		for {
			if _, err := c.Next(ctx); err != nil {
				return
			}
		}
	}()
	b.ReportAllocs()
	for b.Loop() {
		l.Append(Event{Kind: AttemptStart, Email: 7, Rung: "primary", Model: "gpt-5.4-mini"})
	}
	b.StopTimer()
	l.Close()
	cancel()
	<-done
}
