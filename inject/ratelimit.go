package inject

import (
	"fmt"
	"net/http"
	"time"
)

// RateLimit answers 429 Too Many Requests at once, without calling the
// model. With RetryAfter it sends Retry-After (whole seconds, rounded up)
// and retry-after-ms, which openai-go honours before its next retry (up
// to 2 minutes by default; a longer one stops its retries). With SpendCap
// it is the 429 that keeps failing: insufficient_quota and no retry hint,
// so the SDK falls back on its own backoff.
type RateLimit struct {
	// RetryAfter is the wait the server asks for; 0 sends no hint.
	// Default 1s.
	RetryAfter time.Duration `json:"retry_after" yaml:"retry_after" help:"wait the server asks for, sent as Retry-After and retry-after-ms; 0 sends none"`
	// SpendCap sends the quota-exhausted 429 with no retry hint instead.
	SpendCap bool `json:"spend_cap" yaml:"spend_cap" help:"the spend-cap 429 (insufficient_quota), no retry hint"`
}

func init() { register("rate-limit", func() Fault { return &RateLimit{RetryAfter: time.Second} }) }

var _ Fault = (*RateLimit)(nil)

const quotaBody = `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`

// Apply answers 429 at once.
func (r *RateLimit) Apply(a Attempt) (*http.Response, error) {
	closeBody(a.Req)
	if r.SpendCap {
		return jsonResponse(a.Req, http.StatusTooManyRequests, nil, quotaBody), nil
	}
	h := http.Header{}
	msg := "Rate limit reached for requests."
	if r.RetryAfter > 0 {
		setRetryAfter(h, r.RetryAfter)
		msg += " Please try again in " + r.RetryAfter.String() + "."
	}
	body := fmt.Sprintf(`{"error":{"message":%q,"type":"requests","param":null,"code":"rate_limit_exceeded"}}`, msg)
	return jsonResponse(a.Req, http.StatusTooManyRequests, h, body), nil
}
