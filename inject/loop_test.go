package inject

import (
	"testing"
	"testing/synctest"

	"github.com/openai/openai-go/v3"

	"github.com/drill-dev/drill/internal/tools"
)

// TestLoopRepeatsThePreviousToolCall: after the order, the model would ask
// for the delivery; with loop it asks for the order again, with a new id.
func TestLoopRepeatsThePreviousToolCall(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(map[bool]string{false: "whole", true: "streamed"}[stream], func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rig := newRig(t, parse(t, "loop"))
				c := rig.client(0, 2)
				msgs := question(0)
				// The first call has no earlier tool call: unchanged.
				first, finish, err := chatCall(t.Context(), c, msgs, "auto", stream)
				if err != nil {
					t.Fatal(err)
				}
				if len(first.ToolCalls) != 1 || first.ToolCalls[0].Function.Name != tools.GetOrder || finish != "tool_calls" {
					t.Fatalf("first call %+v", first)
				}
				msgs = append(msgs, first.ToParam(), openai.ToolMessage(`{"order_id":"DR-104233","product":"Ember 5 Sleeping Bag","status":"shipped"}`, first.ToolCalls[0].ID))
				again, finish, err := chatCall(t.Context(), c, msgs, "auto", stream)
				if err != nil {
					t.Fatal(err)
				}
				if len(again.ToolCalls) != 1 || again.ToolCalls[0].Function.Name != tools.GetOrder ||
					again.ToolCalls[0].Function.Arguments != first.ToolCalls[0].Function.Arguments ||
					again.ToolCalls[0].ID == first.ToolCalls[0].ID || finish != "tool_calls" {
					t.Errorf("second call %+v (finish %q), want get_order again with a new id", again, finish)
				}
				// The first call, with nothing to repeat, was not broken and
				// is not logged.
				if len(rig.faults) != 1 || rig.faults[0].Kind != "loop" {
					t.Errorf("faults logged %+v, want the second call's loop alone", rig.faults)
				}
			})
		})
	}
}

func TestCanBreak(t *testing.T) {
	first := []byte(`{"tools":[{"type":"function"}],"messages":[{"role":"user","content":"x"}]}`)
	later := []byte(`{"tools":[{"type":"function"}],"tool_choice":"none","messages":[{"role":"user","content":"x"},{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"get_order","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":"{}"}]}`)
	for _, c := range []struct {
		f     Fault
		body  []byte
		wants bool
	}{
		{&Loop{}, first, false},
		{&Loop{}, later, true},
		{&MalformedToolCall{Kind: "cut"}, first, true},
		{&MalformedToolCall{Kind: "cut"}, later, false},
		{&Busy{Status: 503}, first, true},
	} {
		if got := CanBreak(c.f, c.body); got != c.wants {
			t.Errorf("CanBreak(%T, %s) = %v, want %v", c.f, c.body, got, c.wants)
		}
	}
}
