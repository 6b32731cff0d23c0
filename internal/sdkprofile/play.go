package sdkprofile

import (
	"fmt"
	"math"
	"time"

	"github.com/drill-dev/drill/internal/format"
)

// Forever is an attempt or a call that never ends by itself.
const Forever time.Duration = math.MaxInt64

// The fault kinds a profile plays (drill's outage kinds).
const (
	Busy      = "busy"       // an error status at once
	RateLimit = "rate-limit" // a 429, with or without a hint
	Hang      = "hang"       // no answer at all
	Slow      = "slow"       // the answer, late (before the headers)
	Stall     = "stall"      // 200 and some of the body, then silence
	Trickle   = "trickle"    // 200, then the body slowly
	Reset     = "reset"      // the connection dropped
	Malformed = "malformed"  // 200 with a broken answer
)

// Kinds lists the fault kinds Attempt knows.
func Kinds() []string {
	return []string{Busy, Hang, Malformed, RateLimit, Reset, Slow, Stall, Trickle}
}

// Fault is what every attempt of a call meets.
type Fault struct {
	Kind   string
	Stream bool // the call asks for a stream
	// RetryAfter is a rate limit's hint (0: none sent); Status a busy
	// tone's status (0: 503).
	RetryAfter time.Duration
	Status     int
	// Delay is how late a slow answer's headers come.
	Delay time.Duration
	// Body is how long a trickling body takes in all, Gap the longest
	// silence between two of its pieces.
	Body, Gap time.Duration
	// AtBody is true for a reset after the headers (reset at=body).
	AtBody bool
}

// Settings are the application's client settings; zero values take the
// SDK's defaults.
type Settings struct {
	// Retries after the first attempt; nil: the SDK's default.
	Retries *int
	// Timeout is the client's time limit (the SDK's own option: node's
	// timeout, python's timeout, go's http.Client.Timeout or, with
	// RequestScope, option.WithRequestTimeout); 0: the SDK's default.
	Timeout      time.Duration
	RequestScope bool
	// MaxRetryDelay is openai-go's option.WithMaxRetryDelay (0: default).
	MaxRetryDelay time.Duration
}

func (p Profile) retries(s Settings) int {
	if s.Retries != nil {
		return *s.Retries
	}
	return p.Retries
}

// limit is the time limit in force: the application's, else the SDK's
// default; 0 for none.
func (p Profile) limit(s Settings) time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return p.Timeout.Default
}

// Attempt is how one attempt against a fault ends.
type Attempt struct {
	// Duration is from the attempt's start to its end (Forever: never).
	Duration time.Duration
	// Failed is true when the attempt ends in an error; false when the
	// answer came (late, perhaps).
	Failed bool
	// Retried is true when the SDK retries this failure (retries left).
	Retried bool
	// Hint is the server's retry hint this failure carries.
	Hint time.Duration
	// Error is the error the application sees if this is the last attempt.
	Error string
	// Why says in words what ended the attempt.
	Why string
}

// Attempt is how one attempt of a call against f ends under s.
func (p Profile) Attempt(f Fault, s Settings) Attempt {
	t := p.limit(s)
	goRequest := p.Name == Go && s.RequestScope
	cut := func(covered bool, retried bool, err, where string) Attempt {
		if !covered || t == 0 {
			return Attempt{Duration: Forever, Failed: true, Why: "no time limit covers " + where}
		}
		return Attempt{Duration: t, Failed: true, Retried: retried, Error: err,
			Why: fmt.Sprintf("the %s time limit cuts %s", dur(t), where)}
	}
	switch f.Kind {
	case Busy:
		st := f.Status
		if st == 0 {
			st = 503
		}
		return Attempt{Failed: true, Retried: true, Error: p.Errors.Status5xx, Why: fmt.Sprintf("an instant %d", st)}
	case RateLimit:
		return Attempt{Failed: true, Retried: true, Hint: f.RetryAfter, Error: p.Errors.Status429, Why: "an instant 429"}
	case Reset:
		if !f.AtBody {
			return Attempt{Failed: true, Retried: true, Error: p.Errors.Conn, Why: "the connection dropped before the headers"}
		}
		if f.Stream {
			return Attempt{Failed: true, Error: p.Errors.StreamReset, Why: "the connection dropped in the stream (a stream is never retried)"}
		}
		return Attempt{Failed: true, Retried: p.Timeout.BodyResetRetried, Error: p.Errors.BodyReset, Why: "the connection dropped in the body"}
	case Malformed:
		return Attempt{Why: "a 200 the SDK accepts: the broken answer is the caller's to find"}
	case Hang, Slow:
		if f.Kind == Slow && (t == 0 || f.Delay <= t) {
			return Attempt{Duration: f.Delay, Why: "the answer, " + dur(f.Delay) + " late"}
		}
		a := cut(true, !goRequest, p.Errors.Timeout, "the wait for the headers")
		if a.Duration == Forever {
			a.Why = "no time limit: the SDK waits for the headers forever"
		}
		if goRequest && a.Duration != Forever {
			a.Why += " (option.WithRequestTimeout: not retried)"
			a.Error = p.Errors.RequestTimeout
		}
		return a
	case Stall:
		if f.Stream {
			return cut(p.Timeout.Stream, false, p.Errors.StreamTimeout, "the silent stream")
		}
		return cut(p.Timeout.Body, p.Timeout.BodyTimeoutRetried, p.Errors.BodyTimeout, "the silent body")
	case Trickle:
		covered := p.Timeout.Body
		if f.Stream {
			covered = p.Timeout.Stream
		}
		switch {
		case !covered || t == 0:
			return Attempt{Duration: f.Body, Why: "the whole slow body: no time limit covers it"}
		case p.Timeout.PerRead && f.Gap < t:
			return Attempt{Duration: f.Body, Why: fmt.Sprintf("the whole slow body: the %s read timeout restarts on every byte", dur(t))}
		case f.Body <= t:
			return Attempt{Duration: f.Body, Why: "the whole slow body, within the " + dur(t) + " time limit"}
		case f.Stream:
			return cut(true, false, p.Errors.StreamTimeout, "the slow stream")
		}
		return cut(true, p.Timeout.BodyTimeoutRetried, p.Errors.BodyTimeout, "the slow body")
	}
	return Attempt{Why: "not a fault the profiles know"}
}

// Wait is the SDK's wait before retry k (0 for the first) after a failure
// carrying hint (0: none), as a range over its jitter; retry is false when
// the SDK does not retry at all (a hint over its cap, for some). Why says
// where the wait comes from.
func (p Profile) Wait(k int, hint time.Duration, s Settings) (lo, hi time.Duration, retry bool, why string) {
	ra := p.RetryAfter
	capDelay := ra.Max
	if p.Name == Go && s.MaxRetryDelay > 0 {
		capDelay = s.MaxRetryDelay
	}
	switch {
	case hint > capDelay && ra.OverMax == StopRetrying:
		return 0, 0, false, fmt.Sprintf("a Retry-After of %s is over its %s cap: it does not retry", dur(hint), dur(capDelay))
	case hint > 0 && hint <= capDelay:
		return hint, hint, true, "as the server's Retry-After says"
	}
	limit := p.Backoff.Max
	if p.Name == Go && s.MaxRetryDelay > 0 {
		limit = s.MaxRetryDelay
	}
	b := time.Duration(float64(p.Backoff.Initial) * math.Pow(2, float64(k)))
	if b >= limit || b <= 0 {
		b = limit
	}
	lo, hi = b-time.Duration(float64(b)*p.Backoff.Jitter), b
	why = "its own backoff"
	if hint > capDelay {
		why = fmt.Sprintf("its own backoff: it ignores a Retry-After of %s, over its %s cap", dur(hint), dur(capDelay))
	}
	return lo, hi, true, why
}

// Call is what one call does when every attempt meets the same fault.
type Call struct {
	// Attempts is how many attempts the call makes.
	Attempts int
	// Took is how long the call takes, low and high over the jitter
	// (Forever: it never ends).
	Took [2]time.Duration
	// Waits are the waits before each retry, low and high.
	Waits [][2]time.Duration
	// Failed is true when the call ends in an error, Error then the
	// error the application sees.
	Failed bool
	Error  string
	// Why says in words what each step does.
	Why []string
}

// Play is what one call does against f under s, when every attempt meets
// the fault: each attempt's end, the SDK's retries and waits.
func (p Profile) Play(f Fault, s Settings) Call {
	var c Call
	n := p.retries(s)
	for k := 0; ; k++ {
		a := p.Attempt(f, s)
		c.Attempts++
		c.Why = append(c.Why, a.Why)
		if a.Duration == Forever {
			c.Took = [2]time.Duration{Forever, Forever}
			c.Failed = true
			return c
		}
		c.Took[0] += a.Duration
		c.Took[1] += a.Duration
		c.Failed, c.Error = a.Failed, a.Error
		if !a.Failed || !a.Retried || k >= n {
			return c
		}
		lo, hi, retry, why := p.Wait(k, a.Hint, s)
		if !retry {
			c.Why = append(c.Why, why)
			return c
		}
		c.Waits = append(c.Waits, [2]time.Duration{lo, hi})
		c.Why = append(c.Why, "waits "+span(lo, hi)+": "+why)
		c.Took[0] += lo
		c.Took[1] += hi
	}
}

func dur(d time.Duration) string { return format.Setting(d) }

func span(lo, hi time.Duration) string { return format.SettingSpan(lo, hi) }
