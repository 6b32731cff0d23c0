// Package preflight checks a drill's real endpoints before it starts: one
// tiny request per rung whose model is served by a real OpenAI-compatible
// endpoint, so a wrong URL or key is a usage error naming the rung, not a
// drill full of failures.
package preflight

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/workload"
)

// Timeout is how long the preflight waits for each rung's answer.
const Timeout = 30 * time.Second

// prompt is the preflight's one tiny request.
const prompt = "Reply with the word OK."

// target is one rung's model on one endpoint, checked once.
type target struct {
	rung, model, baseURL, keyEnv string
}

// Check sends one request, without retries, to every rung of the drills
// that has a model on a real endpoint (each rung, model and endpoint once)
// and writes a line per rung that answered to w. A rung that fails is a
// usage error (exit 2) that names the rung, its endpoint and why, with
// every secret redacted.
func Check(ctx context.Context, cfgs []workload.Config, w io.Writer) error {
	seen := map[target]bool{}
	for _, cfg := range cfgs {
		for _, r := range cfg.Info().Rungs {
			ep := cfg.RungEndpoint(r.Name)
			if r.Model == "" || ep.BaseURL == "" {
				continue
			}
			t := target{r.Name, r.Model, ep.BaseURL, ep.KeyEnv}
			if seen[t] {
				continue
			}
			seen[t] = true
			start := time.Now()
			u, err := call(ctx, r.Model, ep)
			where := fmt.Sprintf("%s at %s, key from $%s", r.Model, redact.URL(ep.BaseURL), ep.KeyEnv)
			if err != nil {
				return exit.Usagef("preflight: the %s rung (%s) failed: %s\nthe drill was not started (--skip-preflight drills an endpoint that is already down)",
					r.Name, where, redact.String(err.Error()))
			}
			fmt.Fprintf(w, "drill: preflight: %s (%s): ok in %s, %d+%d tokens\n", r.Name, where,
				format.Dur(time.Since(start)), u.PromptTokens, u.CompletionTokens)
		}
	}
	return nil
}

// call sends the preflight's request to one endpoint, without retries.
func call(ctx context.Context, model string, ep workload.Endpoint) (openai.CompletionUsage, error) {
	client := openai.NewClient(option.WithBaseURL(ep.BaseURL), option.WithAPIKey(ep.APIKey),
		option.WithMaxRetries(0), option.WithRequestTimeout(Timeout))
	resp, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: model,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(prompt)}})
	if err != nil {
		return openai.CompletionUsage{}, fmt.Errorf("calling %s: %w", model, err)
	}
	if len(resp.Choices) == 0 {
		return resp.Usage, fmt.Errorf("the answer has no choices: is %s an OpenAI-compatible chat completions endpoint?", redact.URL(ep.BaseURL))
	}
	return resp.Usage, nil
}
