package breaker

import (
	"context"
	"fmt"
	"time"
)

// ProbesAll lets every caller through while half-open (the chapter's lab
// breaker): the first success closes the breaker, the first failure opens it.
const ProbesAll = -1

// Stale says what happens to the result of a call that started in an
// earlier state (an earlier generation) of the breaker.
type Stale string

// Stale policies.
const (
	// StaleDrop drops such results (gobreaker's generation counter): a call
	// that started while closed and failed after the breaker opened says
	// nothing new. The default.
	StaleDrop Stale = "drop"
	// StaleCount counts them as the chapter's lab breaker did: in the
	// closed state they feed the trip rules, a failure while open restarts
	// the cooldown, and a failure while half-open opens the breaker again.
	StaleCount Stale = "count"
)

// StaleModes lists the valid Stale values.
func StaleModes() []string { return []string{string(StaleDrop), string(StaleCount)} }

// Settings configures a Breaker. The zero value is safe: it is drill's
// default breaker (5 failures within 10 s, 5 s open, one customer probe when
// half-open, stale results dropped, Retry-After ignored) with no callback.
type Settings struct {
	// Name identifies the breaker in changes (usually the rung it guards).
	Name string
	// Trip says which rules open a closed breaker. The zero value is 5
	// failures within 10 s.
	Trip Trip
	// Cooldown is how long the breaker stays open before it lets a probe
	// through. Zero means 5 s.
	Cooldown time.Duration
	// ProbeTimeout bounds how long a half-open breaker waits for a probe's
	// result (and how long a synthetic probe may take): a probe that never
	// reports back is counted as failed, so a lost probe cannot leave the
	// breaker stuck. Zero means 30 s.
	ProbeTimeout time.Duration
	// Probes is how many customer calls a half-open breaker lets through at
	// once; it closes after that many succeed and opens on any failure.
	// Zero means 1; ProbesAll lets every caller through.
	Probes int
	// Stale says what happens to results of calls from an earlier state.
	// Empty means StaleDrop.
	Stale Stale
	// HonourRetryAfter keeps an open breaker open at least as long as the
	// largest Retry-After it saw (reported with Finish).
	HonourRetryAfter bool
	// Synthetic, if set, is the breaker's own health call: while open, the
	// breaker runs it every ProbeInterval and closes when it succeeds. No
	// customer call goes through while the breaker is open or half-open.
	// It is called without the breaker's lock and must honour ctx.
	Synthetic func(ctx context.Context) Result
	// ProbeInterval is how often an open breaker runs Synthetic. Zero means
	// Cooldown.
	ProbeInterval time.Duration
	// OnChange, if set, is called for every change of state, in order,
	// with the breaker's lock held: it must not call back into the breaker.
	OnChange func(Change)
	// Now is the clock; nil means time.Now. With nil, the breaker also
	// sets its own timers so that changes that time alone makes (half-open
	// after the cooldown, in-flight age, lost probes) happen on time; with
	// a clock of the caller's, they happen when the breaker is next asked.
	Now func() time.Time
	// Store, if set, shares this breaker's state with every breaker of the
	// same Name using the same store (see Store); nil keeps it in this
	// process alone. Only the count rule can be shared; HonourRetryAfter,
	// Synthetic and Probes other than 1 apply only while the store is
	// unreachable and the breaker decides alone.
	Store Store
}

// withDefaults fills the zero values.
func (s Settings) withDefaults() Settings {
	if s.Cooldown <= 0 {
		s.Cooldown = 5 * time.Second
	}
	if s.ProbeTimeout <= 0 {
		s.ProbeTimeout = 30 * time.Second
	}
	if s.Probes == 0 {
		s.Probes = 1
	}
	if s.Stale == "" {
		s.Stale = StaleDrop
	}
	if s.ProbeInterval <= 0 {
		s.ProbeInterval = s.Cooldown
	}
	s.Trip = s.Trip.WithDefaults()
	return s
}

// Validate says what is wrong with s, listing valid values.
func (s Settings) Validate() error {
	if err := s.Trip.Validate(); err != nil {
		return err
	}
	if s.Probes < ProbesAll {
		return fmt.Errorf("probes must be a number above 0 or all, got %d", s.Probes)
	}
	if s.Stale != "" && s.Stale != StaleDrop && s.Stale != StaleCount {
		return fmt.Errorf("unknown stale %q (valid: drop, count)", s.Stale)
	}
	if s.Cooldown < 0 || s.ProbeTimeout < 0 || s.ProbeInterval < 0 {
		return fmt.Errorf("cooldown, probe timeout and probe interval must not be negative")
	}
	return nil
}
