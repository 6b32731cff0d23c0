package workload

import (
	"context"
	"net/http"
	"time"

	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/sse"
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
	meter *meter // prices usage and guards the spend (usage.go)
}

func (o *observer) RoundTrip(req *http.Request) (*http.Response, error) {
	id, attempt, probe := emailID(req.Context()), retryCount(req), chain.IsProbe(req.Context())
	synth := synthetic(req)
	size, allowedOut := requestInfo(req, o.meter.limited())
	reservation, err := o.meter.admit(o.model, size, allowedOut)
	if err != nil {
		return nil, err // never sent: the run is aborted
	}
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
	resp, end.Usage = o.metered(req, resp, end, size, reservation)
	o.log.Append(end)
	return resp, err
}

// metered accounts for an attempt's usage. A 200's body is wrapped to log
// a usage event once it is read; an attempt cut before its answer (a time
// limit, a cancellation) gets an estimated usage on its attempt_end, from
// the request's size, as the provider may bill it; other failures bill
// nothing.
func (o *observer) metered(req *http.Request, resp *http.Response, end event.Event, size int64, reservation float64) (*http.Response, *event.Usage) {
	if resp != nil && resp.StatusCode == http.StatusOK && resp.Body != nil {
		resp.Body = newUsageBody(resp.Body, sse.IsStream(resp.Header),
			func(in, out int, reported bool, received int64) {
				u := o.meter.usage(o.model, in, out, false)
				if !reported {
					u = o.meter.usage(o.model, int(size/inject.BytesPerToken), int(received/inject.BytesPerToken), true)
				}
				o.meter.settle(o.model, reservation, u)
				o.log.Append(event.Event{Kind: event.AttemptUsage, Email: end.Email, Rung: o.rung, Model: o.model,
					Attempt: end.Attempt, Probe: end.Probe, Synthetic: end.Synthetic, Usage: u})
			})
		return resp, nil
	}
	switch end.Outcome {
	case event.Timeout, event.Canceled, event.Deadline:
		u := o.meter.usage(o.model, int(size/inject.BytesPerToken), 0, true)
		o.meter.settle(o.model, reservation, u)
		return resp, u
	}
	o.meter.settle(o.model, reservation, nil)
	return resp, nil
}
