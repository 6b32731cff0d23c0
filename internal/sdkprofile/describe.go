package sdkprofile

import (
	"fmt"
	"strings"
	"time"

	"github.com/drill-dev/drill/internal/format"
)

// Describe says in one line what a call of this SDK does against f under
// s, for a person: "ignores your Retry-After of 90 s (over its 60 s cap)
// and retries after 0.5 s and 1 s: 3 attempts, RateLimitError after
// 1.1–1.5 s".
func (p Profile) Describe(f Fault, s Settings) string {
	c := p.Play(f, s)
	var b strings.Builder
	first := p.Attempt(f, s)
	if f.Kind == RateLimit && f.RetryAfter > 0 {
		_, _, retry, _ := p.Wait(0, f.RetryAfter, s)
		capDelay := p.RetryAfter.Max
		if p.Name == Go && s.MaxRetryDelay > 0 {
			capDelay = s.MaxRetryDelay
		}
		switch {
		case !retry:
			fmt.Fprintf(&b, "does not retry: your Retry-After of %s is over its %s cap", dur(f.RetryAfter), dur(capDelay))
		case f.RetryAfter > capDelay:
			fmt.Fprintf(&b, "ignores your Retry-After of %s (over its %s cap)", dur(f.RetryAfter), dur(capDelay))
		default:
			fmt.Fprintf(&b, "honours your Retry-After of %s", dur(f.RetryAfter))
		}
	} else {
		b.WriteString(first.Why)
	}
	if len(c.Waits) > 0 {
		ws := make([]string, len(c.Waits))
		for i, w := range c.Waits {
			ws[i] = dur(w[1])
		}
		fmt.Fprintf(&b, " and retries after %s", joinAnd(ws))
		if c.Waits[0][0] != c.Waits[0][1] {
			b.WriteString(" (less up to " + format.Percent(p.Backoff.Jitter) + " jitter)")
		}
	}
	fmt.Fprintf(&b, ": %s, %s", format.Plural(c.Attempts, "attempt"), ending(c))
	return b.String()
}

// ending says how a call ends: never, failing with its error, or answered,
// and after how long.
func ending(c Call) string {
	switch {
	case c.Took[0] == Forever:
		return "never ends"
	case c.Failed:
		return fmt.Sprintf("%s after %s", c.Error, took(c.Took))
	}
	return "answers after " + took(c.Took)
}

func took(t [2]time.Duration) string {
	if t[1]-t[0] < 50*time.Millisecond {
		return format.Dur(t[0])
	}
	return format.DurSpan(t[0], t[1])
}

func joinAnd(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
