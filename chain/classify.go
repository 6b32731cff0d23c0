package chain

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"time"

	"github.com/openai/openai-go/v3"

	"github.com/drill-dev/drill/event"
)

// Classify sorts a call's error by behaviour, not by one Go type: the SDK
// reports a busy tone as *openai.Error, an attempt-scope timeout as a
// *url.Error wrapping a deadline, and a request-scope timeout as a bare
// context.DeadlineExceeded (see DESIGN.md). parent is the caller's context:
// if it has ended, the call was cancelled, whatever the error says.
func Classify(parent context.Context, err error) event.Outcome {
	if err == nil {
		return event.OK
	}
	if parent != nil && parent.Err() != nil {
		return event.Canceled
	}
	if errors.Is(err, ErrSlowStream) {
		return event.SlowStream
	}
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		return ClassifyStatus(apiErr.StatusCode)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return event.Timeout
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return event.Timeout
	}
	if errors.Is(err, context.Canceled) {
		return event.Canceled
	}
	var urlErr *url.Error
	var opErr *net.OpError
	if errors.As(err, &urlErr) || errors.As(err, &opErr) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) {
		return event.ConnError
	}
	return event.OtherError
}

// ClassifyStatus sorts an HTTP status.
func ClassifyStatus(code int) event.Outcome {
	switch {
	case code < 400:
		return event.OK
	case code == http.StatusRequestTimeout:
		return event.Timeout
	case code == http.StatusTooManyRequests:
		return event.HTTP429
	case code >= 500:
		return event.HTTP5xx
	}
	return event.HTTP4xx
}

// probeKey marks a call's context as a half-open breaker's probe.
type probeKey struct{}

// IsProbe reports whether ctx belongs to the call a half-open breaker
// admitted as its probe: the hooks' and every HTTP attempt's context of
// that call carry the mark.
func IsProbe(ctx context.Context) bool {
	p, _ := ctx.Value(probeKey{}).(bool)
	return p
}

// ClassifyAttempt sorts one HTTP attempt's error, seen below the SDK. run
// is the run's context: if it has ended, the attempt was cancelled. One the
// email's deadline cut is a deadline, as its rung call is. An
// attempt whose own context deadline has passed (the http.Client time limit
// of attempt scope, or the SDK's request timeout) timed out, whatever the
// transport says: on a real socket, net/http reports a Client.Timeout as
// "net/http: request canceled" about half the time, because the client
// closes the request's Cancel channel and ends its context at the same
// instant and the transport sees either first.
func ClassifyAttempt(run context.Context, req *http.Request, err error) event.Outcome {
	if err == nil {
		return event.OK
	}
	if run != nil && run.Err() != nil {
		return event.Canceled
	}
	if req != nil {
		ctx := req.Context()
		if ctx.Err() != nil && errors.Is(context.Cause(ctx), errEmailDeadline) {
			return event.Deadline // the email's deadline cut it, as its rung call says: no failure of the model's
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return event.Timeout
		}
		if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) && !runDeadline(run, d) {
			return event.Timeout
		}
	}
	return Classify(run, err)
}

// runDeadline reports whether deadline d is the run's own (its ceiling),
// not an attempt's or request's time limit.
func runDeadline(run context.Context, d time.Time) bool {
	if run == nil {
		return false
	}
	rd, ok := run.Deadline()
	return ok && !d.Before(rd)
}
