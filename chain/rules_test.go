package chain

import (
	"slices"
	"testing"

	"github.com/drill-dev/drill/emails"
)

// TestRulesTriage: the rules rung answers every email from the closed sets,
// and is right on a fair share of them (measured like any rung).
func TestRulesTriage(t *testing.T) {
	right, orders := 0, 0
	for _, e := range emails.All() {
		a := RulesTriage(e)
		if !slices.Contains(emails.Intents, a.Intent) || !slices.Contains(emails.Urgencies, a.Urgency) ||
			(a.Product != "" && !slices.Contains(emails.Products, a.Product)) {
			t.Fatalf("email %d: answer %+v outside the closed sets", e.ID, a)
		}
		if a.Intent == e.Truth.Intent {
			right++
		}
		if a.OrderNumber == e.Truth.OrderNumber {
			orders++
		}
	}
	t.Logf("rules rung: intent right %d/120, order number right %d/120", right, orders)
	if right < 40 || orders < 80 {
		t.Fatalf("intent right %d, order right %d: the keyword rules are broken", right, orders)
	}
}
