package chain

import (
	"context"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/emails"
)

// probeEmail is the synthetic probe's fixed request: a short health check,
// never a customer's email.
var probeEmail = emails.Email{Subject: "health check", Body: "Health check from drill: please triage this message.",
	From: "drill@health.invalid"}

// Probe sends the rung's synthetic health call: a short fixed request to the
// same model through the same client and transport (so the outage sees it
// too), and says how the breaker counts it. ctx bounds it.
func (r *Rung) Probe(ctx context.Context) breaker.Result {
	_, outcome, _ := r.call(ctx, probeEmail)
	return r.cfg.Count.result(outcome)
}
