package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/tools"
)

// TestRecordTokensSizeTheAnswers: a shop sized to 600 tokens answers each
// lookup with its record and a history filling it to about 600 tokens (four
// bytes a token); an unsized shop answers the bare record.
func TestRecordTokensSizeTheAnswers(t *testing.T) {
	var order string
	for _, e := range emails.All() {
		if order = e.Truth.OrderNumber; order != "" {
			break
		}
	}
	args := fmt.Sprintf(`{"order_id": %q}`, order)
	for _, n := range []int{0, 600} {
		shop := tools.NewShop(emails.All())
		shop.RecordTokens = n
		c := tools.NewInProcessShop(shop, 0, nil)
		for _, name := range []string{"get_order", "get_delivery_status", "get_tracking_events"} {
			res, err := c.Call(context.Background(), name, args)
			if err != nil || res.Err != nil {
				t.Fatalf("%s: %v %v", name, err, res.Err)
			}
			var rec map[string]any
			if err := json.Unmarshal([]byte(res.Content), &rec); err != nil || rec["order_id"] == nil {
				t.Fatalf("%s: %q is no record (%v)", name, res.Content, err)
			}
			_, hasHistory := rec["history"]
			switch size := len(res.Content) / 4; {
			case n == 0 && (hasHistory || size > 100):
				t.Errorf("%s unsized: %d tokens, history %v: want the bare record", name, size, hasHistory)
			case n > 0 && (!hasHistory || size < n-10 || size > n+40):
				t.Errorf("%s sized to %d: %d tokens, history %v: want about %d with a history", name, n, size, hasHistory, n)
			}
		}
	}
}
