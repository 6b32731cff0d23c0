package breaker

import (
	"errors"
	"sync"
	"testing"
	"time"
)

// clock is a hand-moved clock for the breaker's Now.
type clock struct{ t time.Time }

func (c *clock) now() time.Time        { return c.t }
func (c *clock) at(s float64)          { c.t = time.Unix(0, 0).Add(time.Duration(s * float64(time.Second))) }
func newClock() *clock                 { c := &clock{}; c.at(0); return c }
func (c *clock) since0() time.Duration { return c.t.Sub(time.Unix(0, 0)) }

func TestDefaultRuleWindow(t *testing.T) {
	c := newClock()
	b := New(Settings{Now: c.now})
	fail := func(at float64) {
		c.at(at)
		tk, err := b.Allow()
		if err != nil {
			t.Fatalf("t=%v: %v", at, err)
		}
		b.Done(tk, Failure)
	}
	// Four failures, then a fifth 11 s after the first: only 4 in the window.
	for _, at := range []float64{0, 1, 2, 3} {
		fail(at)
	}
	fail(11)
	if b.State() != Closed {
		t.Fatalf("opened with failures spread over more than 10 s")
	}
	for _, at := range []float64{12, 13, 14, 15} {
		fail(at)
	}
	if b.State() != Open {
		t.Fatalf("state %v after 5 failures within 10 s, want open", b.State())
	}
	// 4xx and cancellations never count.
	b2 := New(Settings{Now: c.now})
	for range 10 {
		tk, _ := b2.Allow()
		b2.Done(tk, Ignored)
	}
	if b2.State() != Closed {
		t.Fatal("ignored results opened the breaker")
	}
}

func TestHalfOpenLetsExactlyOneProbe(t *testing.T) {
	c := newClock()
	b := New(Settings{Trip: Trip{Failures: 1}, Now: c.now})
	tk, _ := b.Allow()
	b.Done(tk, Failure)
	c.at(4.9)
	if _, err := b.Allow(); !errors.Is(err, ErrOpen) {
		t.Fatal("open breaker let a call through before its cooldown")
	}
	c.at(5)
	probe, err := b.Allow()
	if err != nil || !probe.Probe() {
		t.Fatalf("after cooldown: ticket %+v, %v; want a probe", probe, err)
	}
	if _, err := b.Allow(); !errors.Is(err, ErrOpen) {
		t.Fatal("half-open breaker let a second call through while its probe is in flight")
	}
	c.at(6)
	b.Done(probe, Success)
	if b.State() != Closed {
		t.Fatalf("state %v after a good probe, want closed", b.State())
	}
}

func TestStaleResultsDropped(t *testing.T) {
	c := newClock()
	var opens int
	b := New(Settings{Trip: Trip{Failures: 2}, Now: c.now, OnChange: func(ch Change) {
		if ch.To == Open {
			opens++
		}
	}})
	// Three calls start while closed.
	var tickets []Ticket
	for range 3 {
		tk, _ := b.Allow()
		tickets = append(tickets, tk)
	}
	b.Done(tickets[0], Failure)
	b.Done(tickets[1], Failure) // opens
	c.at(5.5)                   // half-open
	probe, _ := b.Allow()
	// The third call, from the closed generation, fails late: dropped.
	b.Done(tickets[2], Failure)
	if got := b.State(); got != HalfOpen {
		t.Fatalf("stale failure changed the state to %v", got)
	}
	b.Done(probe, Success)
	if b.State() != Closed || opens != 1 {
		t.Fatalf("state %v, opens %d; want closed, 1", b.State(), opens)
	}
}

func TestLostProbeDoesNotStick(t *testing.T) {
	c := newClock()
	var reasons []string
	b := New(Settings{Trip: Trip{Failures: 1}, ProbeTimeout: 10 * time.Second, Now: c.now,
		OnChange: func(ch Change) { reasons = append(reasons, ch.To.String()+": "+ch.Reason) }})
	tk, _ := b.Allow()
	b.Done(tk, Failure) // open at 0
	c.at(5)
	lost, err := b.Allow() // the probe that never returns
	if err != nil {
		t.Fatal(err)
	}
	c.at(14.9)
	if _, err := b.Allow(); !errors.Is(err, ErrOpen) {
		t.Fatal("second probe let through while the first is in flight")
	}
	// At 15 s the probe is declared lost (open again from 15 s); at 20 s
	// the breaker is half-open and a new probe goes through.
	c.at(20)
	probe, err := b.Allow()
	if err != nil || !probe.Probe() {
		t.Fatalf("breaker stuck after a lost probe: %v (changes %v)", err, reasons)
	}
	b.Done(lost, Success) // far too late: dropped
	if b.State() != HalfOpen {
		t.Fatalf("late result of a lost probe changed the state to %v", b.State())
	}
	b.Done(probe, Success)
	if b.State() != Closed {
		t.Fatalf("state %v, want closed (changes %v)", b.State(), reasons)
	}
	if c.since0() != 20*time.Second {
		t.Fatal("clock moved unexpectedly")
	}
}

func TestIgnoredProbeFreesSlot(t *testing.T) {
	c := newClock()
	b := New(Settings{Trip: Trip{Failures: 1}, Now: c.now})
	tk, _ := b.Allow()
	b.Done(tk, Failure)
	c.at(5)
	probe, _ := b.Allow()
	b.Done(probe, Ignored)
	if _, err := b.Allow(); err != nil {
		t.Fatalf("probe slot not released after an ignored probe: %v", err)
	}
}

func TestConcurrentUse(t *testing.T) {
	b := New(Settings{Trip: Trip{Failures: 3, Window: time.Hour}})
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			for range 100 {
				tk, err := b.Allow()
				if err != nil {
					continue
				}
				r := Success
				if i%2 == 0 {
					r = Failure
				}
				b.Done(tk, r)
			}
		})
	}
	wg.Wait()
	if b.State() == Closed {
		t.Fatal("thousands of failures within the window left the breaker closed")
	}
}
