package chain

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/openai/openai-go/v3"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/edge"
)

// CountResult says how a breaker counts an outcome under its Counting:
// failures that can go away on their own count, and 429s, invalid answers
// and streams under the rate floor if asked; a 4xx, a call cut by the
// email's deadline or by a hedge, and a cancelled run say nothing about the
// service being down. The chat workload's status breaker counts by it too.
func CountResult(c breaker.Counting, o event.Outcome) breaker.Result {
	switch {
	case o == event.OK:
		return breaker.Success
	case o.Transient(),
		o == event.HTTP429 && c.Count429,
		o == event.Invalid && c.CountInvalid,
		o == event.SlowStream && c.CountSlowStream:
		return breaker.Failure
	}
	return breaker.Ignored
}

// retryAfter is the server's Retry-After (or Retry-After-Ms) on the
// response behind err, or 0.
func retryAfter(err error) time.Duration {
	if err == nil {
		return 0 // the common case, with no allocation
	}
	apiErr, ok := errors.AsType[*openai.Error](err)
	if !ok || apiErr.Response == nil {
		return 0
	}
	return RetryAfterHeader(apiErr.Response.Header, time.Now())
}

// RetryAfterHeader reads Retry-After-Ms, then Retry-After (seconds or an
// HTTP date, relative to now), as openai-go does; 0 if absent or invalid.
// A value past a week is a week (edge.Span): a server's 99999999999999999999
// must not wrap to a negative wait that a journal then cannot hold.
func RetryAfterHeader(h http.Header, now time.Time) time.Duration {
	// Most answers have neither header: parsing an empty value would still
	// allocate its error, on every attempt.
	if ms := h.Get("Retry-After-Ms"); ms != "" {
		if ms, err := strconv.ParseFloat(ms, 64); err == nil && ms > 0 {
			return edge.Span(ms, time.Millisecond)
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); (err == nil || errors.Is(err, strconv.ErrRange)) && s > 0 {
		return edge.Span(s, time.Second)
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return min(t.Sub(now), edge.MaxDuration)
	}
	return 0
}
