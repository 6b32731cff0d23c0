package chain

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"syscall"

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
