// Package edge is the one check for numbers where they enter drill (flags,
// drill files, sweep ranges, journals): finite, inside the range the engine
// computes with, so that a value validate accepts is one a run accepts and
// no arithmetic downstream overflows or allocates without bound.
package edge

import (
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

const (
	// MaxDuration is the longest span drill works with: a week. A drill's
	// outage windows, time limits and ceiling stay within it, and a journal
	// reader refuses offsets past it (scoring.MaxOffset), so what a run
	// records can be read back.
	MaxDuration = 7 * 24 * time.Hour
	// MinRate is the lowest arrival rate, emails per second: one email a
	// day-ish would be no drill, and below it the gap between two emails
	// (1/rate) no longer fits a time.Duration.
	MinRate = 0.001
	// MaxFactor is the largest multiplier drill accepts (a replay's speed,
	// a fake model's latency scale): past it a scaled duration overflows.
	MaxFactor = 1e6
	// MaxTokens is the most tokens one call's usage may report: no model's
	// context comes near it. A usage past it is taken as no usage, so a
	// hostile or broken upstream cannot make a cost of a trillion dollars.
	MaxTokens = 100_000_000
	// MaxRetries is the most retries a call may make: far past any useful
	// setting, and the highest attempt a journal reader accepts
	// (scoring.MaxAttempt), so a run that retries that often is readable.
	MaxRetries = 1000
)

// Finite returns an error unless v is a number (not NaN, not ±Inf).
func Finite(v float64) error {
	switch {
	case math.IsNaN(v):
		return fmt.Errorf("must be a number, got NaN")
	case math.IsInf(v, 0):
		return fmt.Errorf("must be finite, got %v", v)
	}
	return nil
}

// Factor checks a multiplier: finite, above 0 (or at 0 when zeroOK) and at
// most MaxFactor.
func Factor(v float64, zeroOK bool) error {
	if err := Finite(v); err != nil {
		return err
	}
	switch {
	case v < 0 || (v == 0 && !zeroOK):
		if zeroOK {
			return fmt.Errorf("must not be negative, got %g", v)
		}
		return fmt.Errorf("must be positive, got %g", v)
	case v > MaxFactor:
		return fmt.Errorf("must be at most %g, got %g", float64(MaxFactor), v)
	}
	return nil
}

// Duration returns an error if d is past MaxDuration (the caller checks
// its own lower bound: some durations may be 0 or negative on purpose).
func Duration(d time.Duration) error {
	if d > MaxDuration {
		return fmt.Errorf("must be at most %s (a week, the longest drill runs), got %s", MaxDuration, d)
	}
	return nil
}

// Span converts a count of units read from outside (a Retry-After's
// seconds) to a duration, saturating: NaN and values at or below 0 are 0,
// and anything past MaxDuration is MaxDuration, never a wrapped negative.
func Span(v float64, unit time.Duration) time.Duration {
	if !(v > 0) {
		return 0
	}
	if v >= float64(MaxDuration)/float64(unit) {
		return MaxDuration
	}
	return time.Duration(v * float64(unit))
}

// Retries returns an error unless n is a retry count drill runs with:
// 0..MaxRetries.
func Retries(n int) error {
	if n < 0 || n > MaxRetries {
		return fmt.Errorf("must be 0..%d, got %d", MaxRetries, n)
	}
	return nil
}

// Tokens reports whether a token count a call's usage reports is
// plausible: 0..MaxTokens.
func Tokens(n int) bool { return n >= 0 && n <= MaxTokens }

// Clip bounds a text that came from outside (a model name a client sent)
// to max bytes, cut at a character boundary and marked with how much was
// cut: "gpt-4o…[cut 20971440 bytes]". Text within max is returned as is.
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…[cut " + strconv.Itoa(len(s)-cut) + " bytes]"
}
