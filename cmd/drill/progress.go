package main

import (
	"net/http"
	"sync/atomic"

	"github.com/openai/openai-go/v3/option"
)

// countAnswers is an openai-go middleware that counts the calls a model
// answered (any response but a 429 or 5xx, which the SDK retries), for
// eval's progress.
func countAnswers(n *atomic.Int64) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if err == nil && resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
			n.Add(1)
		}
		return resp, err
	}
}
