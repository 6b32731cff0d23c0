package triage

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/answer"
)

// Result is one email's outcome when a model triages it.
type Result struct {
	Email  emails.Email
	Answer answer.Answer // the parsed answer; zero when Err is set
	// Err is set when the call failed or the answer was invalid (it then
	// wraps ErrInvalid); the email then counts as wrong on every field.
	Err error
	// Content is the raw answer text, when there was one.
	Content string
}

// Evaluate sends every email to model through client, at most concurrency
// calls at a time, and returns the results in the emails' order. Failed
// calls and invalid answers are results with Err set, not errors; Evaluate
// returns an error only when ctx ends first.
func Evaluate(ctx context.Context, client openai.Client, model string, es []emails.Email, concurrency int, opts ...option.RequestOption) ([]Result, error) {
	if concurrency < 1 {
		concurrency = 1
	}
	results := make([]Result, len(es))
	sem := make(chan struct{}, concurrency)
	var wg sync.WaitGroup
	for i, e := range es {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i] = One(ctx, client, model, e, opts...)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return results, nil
}

// One asks model to triage e through client and parses the answer.
func One(ctx context.Context, client openai.Client, model string, e emails.Email, opts ...option.RequestOption) Result {
	r := Result{Email: e}
	resp, err := client.Chat.Completions.New(ctx, Params(model, e), opts...)
	if err != nil {
		r.Err = err
		return r
	}
	if len(resp.Choices) == 0 {
		r.Err = fmt.Errorf("%w: no choices in the response", ErrInvalid)
		return r
	}
	r.Content = resp.Choices[0].Message.Content
	r.Answer, r.Err = Parse(r.Content)
	return r
}

// IsInvalid reports whether err means the model answered, but not validly.
func IsInvalid(err error) bool { return errors.Is(err, ErrInvalid) }
