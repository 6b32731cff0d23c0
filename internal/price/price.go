// Package price is a price table for model calls: per model, the price of a
// million input tokens and of a million output tokens, and the cost of a
// call's usage from it.
package price

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Price is what a model charges, per million tokens.
type Price struct {
	InPerM  float64 `json:"in_per_m"`
	OutPerM float64 `json:"out_per_m"`
}

// Table maps model names (exactly as requests name them) to prices.
type Table map[string]Price

// Parse reads one `MODEL=IN/OUT` entry, such as "gpt-5.4-mini=0.25/2",
// where IN and OUT are prices per million input and output tokens.
func Parse(s string) (model string, p Price, err error) {
	model, prices, ok := strings.Cut(s, "=")
	model = strings.TrimSpace(model)
	in, out, ok2 := strings.Cut(prices, "/")
	if !ok || !ok2 || model == "" {
		return "", Price{}, fmt.Errorf("price %q: want MODEL=IN/OUT, prices per million input and output tokens (e.g. gpt-5.4-mini=0.25/2)", s)
	}
	for _, f := range []struct {
		name string
		text string
		dst  *float64
	}{{"input", in, &p.InPerM}, {"output", out, &p.OutPerM}} {
		v, err := strconv.ParseFloat(strings.TrimSpace(f.text), 64)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return "", Price{}, fmt.Errorf("price %q: the %s price %q is not a number of at least 0", s, f.name, f.text)
		}
		*f.dst = v
	}
	return model, p, nil
}

// ParseAll reads `MODEL=IN/OUT` entries into a table; a model given twice
// is an error.
func ParseAll(entries []string) (Table, error) {
	t := Table{}
	for _, e := range entries {
		m, p, err := Parse(e)
		if err != nil {
			return nil, err
		}
		if _, dup := t[m]; dup {
			return nil, fmt.Errorf("price for %s given twice", m)
		}
		t[m] = p
	}
	return t, nil
}

// Cost is what in input and out output tokens on model cost, in the
// table's currency, and whether the table prices the model.
func (t Table) Cost(model string, in, out int) (float64, bool) {
	p, ok := t[model]
	if !ok {
		return 0, false
	}
	return (float64(in)*p.InPerM + float64(out)*p.OutPerM) / 1e6, true
}

// Models lists the priced models, sorted.
func (t Table) Models() []string {
	ms := make([]string, 0, len(t))
	for m := range t {
		ms = append(ms, m)
	}
	slices.Sort(ms)
	return ms
}
