package breaker

import (
	"context"
	"time"
)

// startSynthetic starts the synthetic probe loop of an open breaker, if it
// has a Synthetic probe and the loop is not already running. Called with
// the lock held.
func (b *Breaker) startSynthetic() {
	if b.s.Synthetic == nil || b.synthing || b.closed {
		return
	}
	b.synthing = true
	b.synthWG.Add(1)
	go b.synthLoop()
}

// synthLoop runs the breaker's own health call every ProbeInterval while the
// breaker is open, and closes the breaker when one succeeds. Customer calls
// never go through meanwhile: Allow rejects them. It ends when the breaker
// closes or Close is called.
func (b *Breaker) synthLoop() {
	defer b.synthWG.Done()
	ctx := b.synthCtx
	for {
		b.mu.Lock()
		next := b.openedAt.Add(b.s.ProbeInterval)
		if b.holdUntil.After(next) {
			next = b.holdUntil
		}
		b.mu.Unlock()
		if !sleepUntil(ctx, next, b.s.Now) {
			b.stopSynthetic()
			return
		}
		pctx, cancel := context.WithTimeout(ctx, b.s.ProbeTimeout)
		r := b.s.Synthetic(pctx)
		cancel()
		b.mu.Lock()
		now := b.s.Now()
		switch {
		case ctx.Err() != nil:
		case r == Success && b.state == Open:
			b.set(Closed, now, "synthetic probe succeeded")
		case b.state == Open:
			b.openedAt = now // the next probe is an interval after this one
		}
		done := b.state != Open || ctx.Err() != nil
		if done {
			b.synthing = false
		}
		b.mu.Unlock()
		if done {
			return
		}
	}
}

func (b *Breaker) stopSynthetic() {
	b.mu.Lock()
	b.synthing = false
	b.mu.Unlock()
}

// sleepUntil waits until the clock reads t or ctx ends; false if ctx ended.
func sleepUntil(ctx context.Context, t time.Time, now func() time.Time) bool {
	d := t.Sub(now())
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}
