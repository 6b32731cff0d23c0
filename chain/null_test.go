package chain

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

// nullAnswer is a 200 whose body is the JSON value null: valid JSON that
// decodes to no completion at all.
func nullAnswer(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader("null")), Request: r}, nil
}

// TestNullAnswerIsInvalid: an endpoint that answers null gets an invalid
// answer, like one with no choices, and the email goes on down the chain;
// it crashed the drill (a nil completion's choices were read).
func TestNullAnswerIsInvalid(t *testing.T) {
	c := &Chain{Rungs: []*Rung{rung("primary", "m", &countingTransport{fail: nullAnswer}, nil)}, Canned: true}
	res := c.Serve(t.Context(), emails.All()[0])
	if res.ServedBy != "canned" || len(res.Errors) != 1 || res.Errors[0].Outcome != event.Invalid {
		t.Errorf("served by %s, errors %+v; want canned after an invalid primary", res.ServedBy, res.Errors)
	}
}

// TestNullProbeIsAFailure: a synthetic probe answered null counts as a
// failed probe, not a crash of the breaker's goroutine.
func TestNullProbeIsAFailure(t *testing.T) {
	r := rung("primary", "m", &countingTransport{fail: nullAnswer}, nil)
	if got := r.Probe(t.Context()); got != CountResult(r.cfg.Count, event.Invalid) || got == breaker.Success {
		t.Errorf("probe answered null: %v, want the invalid answer's count", got)
	}
}
