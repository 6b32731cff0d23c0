package chain

import (
	"context"

	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/triage"
)

// probeEmail is the synthetic probe's fixed request: a short health check,
// never a customer's email.
var probeEmail = emails.Email{Subject: "health check", Body: "Health check from drill: please triage this message.",
	From: "drill@health.invalid"}

// Probe sends the rung's synthetic health call: a short fixed request to the
// same model through the same client and transport (so the outage sees it
// too), one attempt without SDK retries, and says how the breaker counts
// it. ctx bounds it.
func (r *Rung) Probe(ctx context.Context) breaker.Result {
	resp, err := r.client.Chat.Completions.New(ctx, triage.Params(r.cfg.Model, probeEmail), option.WithMaxRetries(0))
	if err != nil {
		return CountResult(r.cfg.Count, Classify(ctx, err))
	}
	if resp == nil || len(resp.Choices) == 0 { // a body of null decodes to no completion
		return CountResult(r.cfg.Count, event.Invalid)
	}
	if _, err := triage.Parse(resp.Choices[0].Message.Content); err != nil {
		return CountResult(r.cfg.Count, event.Invalid)
	}
	return breaker.Success
}
