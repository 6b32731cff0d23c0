// Package eval measures answer quality: it sends a set of emails, with no
// outage, to one or more models through openai-go and scores each answer
// against the email's truth. drill eval is a thin command over it.
package eval

import (
	"context"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/triage"
	"github.com/drill-dev/drill/scoring"
)

// Outcome is one model's evaluation over a set of emails.
type Outcome struct {
	// Result holds the quality figures over the scored emails.
	Result scoring.QualityResult
	// Misses lists the scored emails answered wrong, in the emails' order.
	Misses []scoring.Miss
	// Failed lists the emails whose call failed or whose answer was
	// invalid (scored or not); each counts wrong on every field.
	Failed []triage.Result
	// Unscored is the number of emails that came without a truth: they were
	// sent and answered but not scored.
	Unscored int
}

// Report is the JSON object drill eval --json prints for one model: the
// quality figures (exactly scoring.QualityResult's keys), plus "unscored"
// when some emails had no truth and "misses" when they were asked for.
type Report struct {
	scoring.QualityResult
	Unscored int            `json:"unscored,omitempty"`
	Misses   []scoring.Miss `json:"misses,omitempty"`
}

// Report returns o as drill eval --json prints it; withMisses keeps the
// misses (an empty list is then printed as []).
func (o Outcome) Report(withMisses bool) Report {
	r := Report{QualityResult: o.Result, Unscored: o.Unscored}
	if withMisses {
		r.Misses = o.Misses
		if r.Misses == nil {
			r.Misses = []scoring.Miss{}
		}
	}
	return r
}

// AllFailedError means every call to a model failed: the endpoint is down or
// refuses the model, so no quality figure means anything.
type AllFailedError struct {
	Model string
	First error
}

func (e *AllFailedError) Error() string {
	return fmt.Sprintf("model %s: every call failed; first error: %v", e.Model, e.First)
}

func (e *AllFailedError) Unwrap() error { return e.First }

// Run evaluates each model in turn over es through client, with at most
// concurrency calls in flight, and returns one Outcome per model in the
// order given. It returns ctx's error if ctx ends first, and an
// *AllFailedError if every call to a model failed.
func Run(ctx context.Context, client openai.Client, models []string, es []emails.Email, concurrency int, opts ...option.RequestOption) ([]Outcome, error) {
	var out []Outcome
	for _, m := range models {
		results, err := triage.Evaluate(ctx, client, m, es, concurrency, opts...)
		if err != nil {
			return nil, err
		}
		o, err := Score(m, results)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

// Score scores one model's results: emails with a truth go into the quality
// figures, the others are counted as unscored.
func Score(model string, results []triage.Result) (Outcome, error) {
	var o Outcome
	q := scoring.Quality{Model: model}
	failed := 0
	var first error
	for _, r := range results {
		if r.Err != nil {
			o.Failed = append(o.Failed, r)
			if !triage.IsInvalid(r.Err) {
				failed++
				if first == nil {
					first = r.Err
				}
			}
		}
		if r.Email.Unscored {
			o.Unscored++
			continue
		}
		q.Add(r.Email.ID, r.Answer, r.Email.Truth, r.Err != nil)
	}
	if failed > 0 && failed == len(results) {
		return Outcome{}, &AllFailedError{Model: model, First: first}
	}
	o.Result, o.Misses = q.Result(), q.Misses()
	return o, nil
}
