package breaker

// Observe reports the outcome of a call without a ticket: a breaker told
// only a time and a verdict, as the support-chat simulation's status breaker
// is (breaker.record(now, failed)). The outcome is judged in the state the
// breaker is in when it arrives, whenever the call started: while closed it
// feeds the trip rules (a success ends a run of failures), while open it is
// not looked at (the breaker stays open its cooldown), and while half-open
// it is the trial's verdict, whichever call it came from: a failure opens
// the breaker again, a success closes it (after Probes of them). Tickets
// still route calls (Allow) and hold the half-open state's trial slot;
// release them with Done(t, Ignored) when every outcome goes to Observe.
//
// A breaker sharing its state through a Store changes that state only by
// its tickets: Observe is dropped unless the breaker decides alone.
func (b *Breaker) Observe(r Result) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if r == Ignored || (b.s.Store != nil && !b.local) {
		return
	}
	now := b.s.Now()
	b.advance(now)
	call := Call{At: now, Failed: r == Failure}
	switch b.state {
	case Closed:
		b.record(call)
	case HalfOpen:
		if b.s.Synthetic == nil { // else its own health call decides
			b.probeOutcome(call, now)
		}
	}
}
