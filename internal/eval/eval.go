// Package eval measures answer quality: it sends a set of emails, with no
// outage, to one or more models through openai-go and scores each answer
// against the email's truth. drill eval is a thin command over it.
package eval

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/answer"
	"github.com/drill-dev/drill/internal/triage"
	"github.com/drill-dev/drill/scoring"
)

// Explainer says why a model answered an email as it did. Only the
// built-in fake model can: its answers come from reading rules.
type Explainer interface {
	// Explains reports whether the explainer can say why model answers
	// as it does.
	Explains(model string) bool
	// Explain returns model's answer to msg (the user message sent) and,
	// for every field, the reading rule that decided it (a rule saying so
	// when none did).
	Explain(model, msg string) (got answer.Answer, rules map[string]string)
}

// Miss is one scored email answered wrong, with the reading rule behind
// each wrong field when the model can say (Because is then keyed by the
// names in Wrong).
type Miss struct {
	scoring.Miss
	Because map[string]string `json:"because,omitempty"`
}

// Outcome is one model's evaluation over a set of emails.
type Outcome struct {
	// Result holds the quality figures over the scored emails.
	Result scoring.QualityResult
	// Misses lists the scored emails answered wrong, in the emails' order.
	Misses []Miss
	// MissesByRule counts the wrong fields of the misses by the reading
	// rule behind each; nil when the model cannot say (then no miss has
	// a Because). An answer the explanation does not match, or an invalid
	// one, has no rule and is not counted here.
	MissesByRule map[string]int
	// Failed lists the emails whose call failed or whose answer was
	// invalid (scored or not); each counts wrong on every field.
	Failed []triage.Result
	// Unscored is the number of emails that came without a truth: they were
	// sent and answered but not scored.
	Unscored int
}

// Report is the JSON object drill eval --json prints for one model: the
// quality figures (exactly scoring.QualityResult's keys), plus "unscored"
// when some emails had no truth, "misses_by_rule" when the model can say
// why it answered as it did (the built-in fake model; {} when it missed
// nothing) and "misses" when they were asked for.
type Report struct {
	scoring.QualityResult
	Unscored     int            `json:"unscored,omitempty"`
	MissesByRule map[string]int `json:"misses_by_rule,omitzero"`
	Misses       []Miss         `json:"misses,omitempty"`
}

// Report returns o as drill eval --json prints it; withMisses keeps the
// misses (an empty list is then printed as []).
func (o Outcome) Report(withMisses bool) Report {
	r := Report{QualityResult: o.Result, Unscored: o.Unscored, MissesByRule: o.MissesByRule}
	if withMisses {
		r.Misses = o.Misses
		if r.Misses == nil {
			r.Misses = []Miss{}
		}
	}
	return r
}

// RuleCount is one reading rule and the wrong fields it caused.
type RuleCount struct {
	Rule  string
	Count int
}

// RulesByCount returns o's misses by rule, most first (ties by name).
func (o Outcome) RulesByCount() []RuleCount {
	out := make([]RuleCount, 0, len(o.MissesByRule))
	for r, n := range o.MissesByRule {
		out = append(out, RuleCount{r, n})
	}
	slices.SortFunc(out, func(a, b RuleCount) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return cmp.Compare(a.Rule, b.Rule)
	})
	return out
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
// order given; explain, when not nil, says which reading rule caused each
// miss. It returns ctx's error if ctx ends first, and an *AllFailedError if
// every call to a model failed.
func Run(ctx context.Context, client openai.Client, models []string, es []emails.Email, concurrency int, explain Explainer, opts ...option.RequestOption) ([]Outcome, error) {
	var out []Outcome
	for _, m := range models {
		results, err := triage.Evaluate(ctx, client, m, es, concurrency, opts...)
		if err != nil {
			return nil, err
		}
		o, err := Score(m, results, explain)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

// Score scores one model's results: emails with a truth go into the quality
// figures, the others are counted as unscored. explain, when not nil, says
// which reading rule caused each miss.
func Score(model string, results []triage.Result, explain Explainer) (Outcome, error) {
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
	o.Result = q.Result()
	byID := make(map[int]emails.Email, len(results))
	for _, r := range results {
		byID[r.Email.ID] = r.Email
	}
	explains := explain != nil && explain.Explains(model)
	if explains {
		o.MissesByRule = map[string]int{}
	}
	for _, m := range q.Misses() {
		miss := Miss{Miss: m}
		if explains && !m.Invalid {
			// The explanation holds only if it explains the answer that
			// came back.
			if got, rules := explain.Explain(model, triage.UserPrompt(byID[m.Email])); answer.Normalize(got) == answer.Normalize(m.Got) {
				miss.Because = map[string]string{}
				for _, f := range m.Wrong {
					miss.Because[f] = rules[f]
					o.MissesByRule[rules[f]]++
				}
			}
		}
		o.Misses = append(o.Misses, miss)
	}
	return o, nil
}
