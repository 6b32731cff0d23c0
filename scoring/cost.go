package scoring

import (
	"maps"
	"slices"

	"github.com/drill-dev/drill/event"
)

// TokenSummary is the tokens the run's model calls used, every HTTP attempt
// counted: answers thrown away (a hedge's loser, an invalid answer, an
// attempt cut by a time limit) included.
type TokenSummary struct {
	// Input and Output are the input (prompt) and output (completion)
	// tokens, reported and estimated.
	Input  int `json:"input"`
	Output int `json:"output"`
	// EstimatedInput and EstimatedOutput are the part of Input and Output
	// that was estimated, at four bytes a token, because the provider
	// reported no usage (an attempt cut before its answer).
	EstimatedInput  int `json:"estimated_input"`
	EstimatedOutput int `json:"estimated_output"`
	// InputByRung and OutputByRung split Input and Output by rung.
	InputByRung  map[string]int `json:"input_by_rung"`
	OutputByRung map[string]int `json:"output_by_rung"`
	// Attempts counts the attempts with a usage; EstimatedAttempts those
	// whose usage was estimated.
	Attempts          int `json:"attempts"`
	EstimatedAttempts int `json:"estimated_attempts"`
}

// CostSummary is what the run's tokens cost by its price table.
type CostSummary struct {
	// Total is the cost of every attempt's tokens, estimates included.
	Total float64 `json:"total"`
	// Estimated is the part of Total from estimated tokens.
	Estimated float64 `json:"estimated"`
	// ByRung splits Total by rung.
	ByRung map[string]float64 `json:"by_rung"`
	// Unpriced lists the models that used tokens but have no price: their
	// tokens are in TokenSummary and cost nothing here.
	Unpriced []string `json:"unpriced"`
	// UnpricedMore counts the attempts of unpriced models past the first
	// MaxUnpricedListed: a proxy's clients name its models, and a flood
	// of names must not grow the summary without bound.
	UnpricedMore int `json:"unpriced_more,omitempty"`
	// MaxSpend is the run's spend limit (--max-spend); 0 for none.
	MaxSpend float64 `json:"max_spend"`
}

// Known reports whether the cost is a figure worth showing: some price is
// known (a spend limit was set, something cost money, or every model that
// used tokens had a price, if only zero). A run whose every model is
// unpriced (the built-in fake model without --price) costs 0 only because
// nothing is priced, so views leave its cost out rather than print zeros.
func (c CostSummary) Known() bool {
	return c.Total > 0 || c.MaxSpend > 0 || (c.ByRung != nil && len(c.Unpriced) == 0)
}

// MaxUnpricedListed is how many unpriced models a summary names.
const MaxUnpricedListed = 100

// costTrack folds every event that carries a usage.
type costTrack struct {
	tokens   TokenSummary
	cost     CostSummary
	unpriced map[string]bool
}

// add folds one event's usage, if it has one.
func (c *costTrack) add(e event.Event) {
	u := e.Usage
	if u == nil {
		u = e.ProxyUsage() // a proxied call records its usage with the call
	}
	if u == nil {
		return
	}
	if c.tokens.InputByRung == nil {
		c.tokens.InputByRung, c.tokens.OutputByRung = map[string]int{}, map[string]int{}
		c.cost.ByRung, c.unpriced = map[string]float64{}, map[string]bool{}
	}
	c.tokens.Input += u.InputTokens
	c.tokens.Output += u.OutputTokens
	c.tokens.InputByRung[e.Rung] += u.InputTokens
	c.tokens.OutputByRung[e.Rung] += u.OutputTokens
	c.tokens.Attempts++
	c.cost.Total += u.Cost
	c.cost.ByRung[e.Rung] += u.Cost
	if u.Estimated {
		c.tokens.EstimatedInput += u.InputTokens
		c.tokens.EstimatedOutput += u.OutputTokens
		c.tokens.EstimatedAttempts++
		c.cost.Estimated += u.Cost
	}
	if !u.Priced && u.InputTokens+u.OutputTokens > 0 {
		switch {
		case c.unpriced[e.Model]:
		case len(c.unpriced) < MaxUnpricedListed:
			c.unpriced[e.Model] = true
		default:
			c.cost.UnpricedMore++
		}
	}
}

// summary is the tokens and cost so far, costs rounded to a millionth. A
// run without any usage (recorded before drill counted tokens, or whose
// calls all failed) has zero figures and null maps and lists, so its
// summary reads back from a journal unchanged; otherwise they are empty
// rather than null.
func (c *costTrack) summary() (TokenSummary, CostSummary) {
	t, k := c.tokens, c.cost
	if t.Attempts == 0 {
		return TokenSummary{}, CostSummary{}
	}
	t.InputByRung, t.OutputByRung = maps.Clone(t.InputByRung), maps.Clone(t.OutputByRung)
	k.ByRung = map[string]float64{}
	for r, v := range c.cost.ByRung {
		k.ByRung[r] = round(v, 6)
	}
	k.Total, k.Estimated = round(k.Total, 6), round(k.Estimated, 6)
	k.Unpriced = slices.Sorted(maps.Keys(c.unpriced))
	if k.Unpriced == nil {
		k.Unpriced = []string{}
	}
	return t, k
}

// Cost returns the tokens and cost folded so far, for the dashboard and
// reports: the same figures as the summary's tokens and cost.
func (f *Fold) Cost() (TokenSummary, CostSummary) { return f.cost.summary() }
