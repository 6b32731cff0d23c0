package workload

import (
	"context"
	"net/http"
	"time"

	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/event"
)

var _ http.RoundTripper = (*observer)(nil)

// observer is the RoundTripper just below the SDK: it logs every HTTP
// attempt's start and end, so retries are visible one by one.
type observer struct {
	run   context.Context // the run's context: its end is a cancellation, not a timeout
	log   *event.Log
	rung  string
	model string
	next  http.RoundTripper
}

func (o *observer) RoundTrip(req *http.Request) (*http.Response, error) {
	id, attempt, probe := emailID(req.Context()), retryCount(req), chain.IsProbe(req.Context())
	synth := synthetic(req)
	o.log.Append(event.Event{Kind: event.AttemptStart, Email: id, Rung: o.rung, Model: o.model, Attempt: attempt, Probe: probe,
		Synthetic: synth})
	resp, err := o.next.RoundTrip(req)
	end := event.Event{Kind: event.AttemptEnd, Email: id, Rung: o.rung, Model: o.model, Attempt: attempt, Probe: probe,
		Synthetic: synth}
	switch {
	case err != nil:
		end.Outcome, end.Detail = chain.ClassifyAttempt(o.run, req, err), err.Error()
	default:
		end.Outcome, end.Status = chain.ClassifyStatus(resp.StatusCode), resp.StatusCode
		// As drill proxy logs it: a journal replayed as a fault pattern
		// (replayfault) keeps the server's Retry-After.
		end.RetryAfter = chain.RetryAfterHeader(resp.Header, time.Now())
	}
	o.log.Append(end)
	return resp, err
}
