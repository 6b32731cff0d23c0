package price

import (
	"strings"
	"testing"
)

func TestParseAndCost(t *testing.T) {
	tab, err := ParseAll([]string{"gpt-5.4-mini=0.25/2", " gpt-5.4-nano = 0.05/0.4"})
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := tab.Cost("gpt-5.4-mini", 1_000_000, 500_000); !ok || c != 1.25 {
		t.Errorf("mini: %v %v, want 1.25", c, ok)
	}
	if c, ok := tab.Cost("gpt-5.4-nano", 2000, 100); !ok || c != 0.00014 {
		t.Errorf("nano: %v %v, want 0.00014", c, ok)
	}
	if _, ok := tab.Cost("other", 1, 1); ok {
		t.Error("an unpriced model has a cost")
	}
	if got := strings.Join(tab.Models(), ","); got != "gpt-5.4-mini,gpt-5.4-nano" {
		t.Errorf("models %s", got)
	}
}

func TestBadPrices(t *testing.T) {
	for _, s := range []string{"gpt", "gpt=1", "=1/2", "m=a/2", "m=1/-2", "m=1/Inf"} {
		if _, _, err := Parse(s); err == nil || !strings.Contains(err.Error(), s) {
			t.Errorf("Parse(%q): %v, want an error quoting it", s, err)
		}
	}
	if _, err := ParseAll([]string{"m=1/2", "m=3/4"}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("duplicate: %v", err)
	}
}
