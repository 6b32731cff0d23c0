package sdkprofile

import "time"

// backoff is the backoff every profile here reads the same: 0.5 s
// doubling, capped at 8 s, minus up to 25 % jitter.
var backoff = Backoff{Initial: 500 * time.Millisecond, Max: 8 * time.Second, Jitter: 0.25}

// goProfile is openai-go, the SDK drill itself runs.
var goProfile = Profile{
	Name: Go, Package: "openai-go", Lang: "go", UserAgent: "OpenAI/Go",
	Version: "3.98.0",
	Sources: []string{"internal/requestconfig/requestconfig.go (retryDelay, parseRetryAfterHeader, shouldRetry, Execute)"},
	Retries: 2, Backoff: backoff,
	RetryAfter: RetryAfter{Headers: []string{"Retry-After-Ms", "Retry-After"}, Max: 2 * time.Minute,
		MaxOption: "option.WithMaxRetryDelay", OverMax: StopRetrying, ZeroHonoured: true},
	Timeout: Timeout{Option: "http.Client.Timeout (attempt scope) or option.WithRequestTimeout (request scope)",
		Body: true, Stream: true,
		Covers: "no default limit; either limit covers an attempt's headers and its body, streamed or not; " +
			"a limit hit before the headers is retried with http.Client.Timeout and final with option.WithRequestTimeout; " +
			"the body is read after the retry loop, so nothing that breaks in it is retried"},
	RetriedStatuses: retried,
	Errors: Errors{Status5xx: "*openai.Error", Status429: "*openai.Error",
		Timeout: "*url.Error (deadline)", RequestTimeout: "context.DeadlineExceeded",
		BodyTimeout: "a read error wrapping the deadline", StreamTimeout: "stream.Err(): the deadline",
		Conn: "*url.Error", BodyReset: "a read or JSON error (unexpected EOF)", StreamReset: "stream.Err(): the read error"},
	Measured: []string{"the error types of a timeout and a reset, measured through drill proxy in drill's own tests"},
}

// nodeProfile is the openai npm package.
var nodeProfile = Profile{
	Name: Node, Package: "openai-node", Lang: "js", UserAgent: "OpenAI/JS",
	Version: "7.60.0",
	Sources: []string{"client.js (makeRequest, parseResponseWithTimeout, fetchWithTimeout, shouldRetry, retryRequest, calculateDefaultRetryTimeoutMillis)"},
	Retries: 2, Backoff: backoff,
	RetryAfter: RetryAfter{Headers: []string{"retry-after-ms", "retry-after"}, Max: 60 * time.Second,
		OverMax: OwnBackoff, ZeroHonoured: true},
	Timeout: Timeout{Option: "timeout", Default: 10 * time.Minute, Body: true, BodyTimeoutRetried: true,
		Covers: "10 minutes by default, per attempt, from its start to the end of a non-streamed body; " +
			"a timeout in the body is retried like one before the headers (a reset there is not); nothing covers a stream's body once its headers have come"},
	RetriedStatuses: retried,
	Errors: Errors{Status5xx: "InternalServerError", Status429: "RateLimitError",
		Timeout: "APIConnectionTimeoutError", BodyTimeout: "APIConnectionTimeoutError", StreamTimeout: "none: the stream waits",
		Conn: "APIConnectionError", BodyReset: "TypeError: terminated (raw, from fetch)", StreamReset: "TypeError: terminated (raw, from fetch)"},
	Measured: []string{"a reset in a body surfaces as a raw TypeError: terminated (measured with 7.60 through drill proxy)"},
}

// pythonProfile is openai-python. Its source was read at 3.3.1; the issue
// that asked for these profiles measured 2.54 through drill proxy, with the
// same results.
var pythonProfile = Profile{
	Name: Python, Package: "openai-python", Lang: "python", UserAgent: "OpenAI/Python",
	Version: "3.3.1",
	Sources: []string{"src/openai/_constants.py (DEFAULT_TIMEOUT, DEFAULT_MAX_RETRIES, INITIAL_RETRY_DELAY, MAX_RETRY_DELAY, MAX_RETRY_AFTER_DELAY)",
		"src/openai/_base_client.py (request, _parse_retry_after_header, _calculate_retry_timeout, _should_retry)"},
	Retries: 2, Backoff: backoff,
	RetryAfter: RetryAfter{Headers: []string{"retry-after-ms", "retry-after"}, Max: 2 * time.Minute,
		OverMax: StopRetrying, ZeroHonoured: false},
	Timeout: Timeout{Option: "timeout (an httpx Timeout)", Default: 10 * time.Minute, Connect: 5 * time.Second,
		PerRead: true, Body: true, Stream: true, BodyTimeoutRetried: true, BodyResetRetried: true,
		Covers: "httpx limits: 5 s to connect, then 10 minutes per read by default; a read timeout restarts on every byte, " +
			"so a slow body that keeps sending never hits it; a non-streamed body is read inside the retry loop (retried), a stream's is not"},
	RetriedStatuses: retried,
	Errors: Errors{Status5xx: "InternalServerError", Status429: "RateLimitError",
		Timeout: "APITimeoutError", BodyTimeout: "APITimeoutError", StreamTimeout: "httpx.ReadTimeout (raw)",
		Conn: "APIConnectionError", BodyReset: "APIConnectionError", StreamReset: "httpx.RemoteProtocolError (raw)"},
	Measured: []string{"a stall in a stream surfaces as a raw httpx.ReadTimeout, a reset in a body as APIConnectionError after 3 attempts (measured with 2.54 through drill proxy)"},
}
