package scoring

import "testing"

// TestCostKnown: a cost is shown only when some price is known.
func TestCostKnown(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    CostSummary
		want bool
	}{
		{"no usage", CostSummary{}, false},
		{"every model unpriced", CostSummary{ByRung: map[string]float64{"primary": 0}, Unpriced: []string{"gpt-5.4-mini"}}, false},
		{"priced", CostSummary{Total: 0.001, ByRung: map[string]float64{"primary": 0.001}, Unpriced: []string{}}, true},
		{"priced and unpriced", CostSummary{Total: 0.001, ByRung: map[string]float64{"primary": 0.001, "backup": 0}, Unpriced: []string{"gpt-5.4-nano"}}, true},
		{"priced at zero", CostSummary{ByRung: map[string]float64{"primary": 0}, Unpriced: []string{}}, true},
		{"a spend limit", CostSummary{MaxSpend: 1, ByRung: map[string]float64{"primary": 0}, Unpriced: []string{"m"}}, true},
	} {
		if got := tc.c.Known(); got != tc.want {
			t.Errorf("%s: Known() = %v, want %v", tc.name, got, tc.want)
		}
	}
}
