package scoring

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/drill-dev/drill/event"
)

// TestCostFold: every event's usage counts, per rung and in total, estimates
// apart; unpriced models are listed; a summary reads back from JSON equal.
func TestCostFold(t *testing.T) {
	f := NewFold()
	f.AddAll([]event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Emails: 2, Rate: 1}},
		{Kind: event.AttemptEnd, Email: 1, Rung: "primary", Model: "a", Outcome: event.Timeout,
			Usage: &event.Usage{InputTokens: 300, Estimated: true, Cost: 0.0003, Priced: true}},
		{Kind: event.AttemptUsage, Email: 1, Rung: "backup", Model: "b", Usage: &event.Usage{InputTokens: 250, OutputTokens: 20}},
		{Kind: event.AttemptUsage, Email: 2, Rung: "primary", Model: "a", Usage: &event.Usage{InputTokens: 200, OutputTokens: 10, Cost: 0.00022, Priced: true}},
		{Kind: event.AttemptEnd, Email: 2, Rung: "primary", Model: "a", Outcome: event.HTTP5xx},
	})
	s := f.Summary()
	tk, c := s.Tokens, s.Cost
	if tk.Input != 750 || tk.Output != 30 || tk.EstimatedInput != 300 || tk.Attempts != 3 || tk.EstimatedAttempts != 1 ||
		tk.InputByRung["primary"] != 500 || tk.OutputByRung["backup"] != 20 {
		t.Errorf("tokens %+v", tk)
	}
	if c.Total != 0.00052 || c.Estimated != 0.0003 || c.ByRung["primary"] != 0.00052 || c.ByRung["backup"] != 0 ||
		!reflect.DeepEqual(c.Unpriced, []string{"b"}) {
		t.Errorf("cost %+v", c)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Summary
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Tokens, s.Tokens) || !reflect.DeepEqual(back.Cost, s.Cost) {
		t.Errorf("read back %+v %+v, want %+v %+v", back.Tokens, back.Cost, s.Tokens, s.Cost)
	}
	if tk, c := Summarize(nil).Tokens, Summarize(nil).Cost; !reflect.DeepEqual(tk, TokenSummary{}) || !reflect.DeepEqual(c, CostSummary{}) {
		t.Errorf("no usage: %+v %+v, want zero", tk, c)
	}
}
