package inject

import (
	"encoding/json"
	"errors"
	"testing"
	"testing/synctest"

	"github.com/drill-dev/drill/internal/tools"
)

// TestMalformedToolCallDoesNotParse: the SDK accepts the 200; the tool
// call's name is the model's, its arguments do not parse, streamed or not.
func TestMalformedToolCallDoesNotParse(t *testing.T) {
	for _, kind := range []string{"cut", "prose"} {
		for _, stream := range []bool{false, true} {
			t.Run(kind+map[bool]string{false: "/whole", true: "/streamed"}[stream], func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					rig := newRig(t, parse(t, "malformed-tool-call", "kind="+kind))
					msg, finish, err := chatCall(t.Context(), rig.client(0, 2), question(0), "auto", stream)
					if err != nil {
						t.Fatal(err)
					}
					if len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Function.Name != tools.GetOrder || msg.ToolCalls[0].ID == "" || finish != "tool_calls" {
						t.Fatalf("message %+v, finish %q: want one get_order call", msg, finish)
					}
					args := msg.ToolCalls[0].Function.Arguments
					if _, err := tools.ParseArgs(args); !errors.Is(err, tools.ErrBadArguments) {
						t.Errorf("arguments %q parse (%v)", args, err)
					}
					t.Logf("%s: arguments %q", kind, args)
					if rig.attempts.n != 1 {
						t.Errorf("%d attempts, want 1", rig.attempts.n)
					}
				})
			})
		}
	}
}

// TestMalformedToolCallLeavesContent: a call that cannot get a tool call
// (the interpretation, tool_choice none) passes unchanged.
func TestMalformedToolCallLeavesContent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newRig(t, parse(t, "malformed-tool-call"))
		broken, _, err := chatCall(t.Context(), rig.client(0, 2), question(0), "none", true)
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := chatCall(t.Context(), modelClient(), question(0), "none", true)
		if err != nil {
			t.Fatal(err)
		}
		if broken.Content == "" || broken.Content != want.Content || len(broken.ToolCalls) != 0 {
			t.Errorf("content %q, want the model's %q", broken.Content, want.Content)
		}
		// tool_choice none cannot get a tool call: the fault was not
		// applied and is not logged.
		if len(rig.faults) != 0 {
			t.Errorf("faults logged %+v for a call with tool_choice none", rig.faults)
		}
	})
}

func TestMalformedToolCallKinds(t *testing.T) {
	if _, err := ParseFault("malformed-tool-call", []string{"kind=yaml"}); err == nil {
		t.Error("kind yaml accepted")
	}
	m := &MalformedToolCall{Kind: "cut"}
	for _, args := range []string{`{"order_id":"DR-104233"}`, `{}`, ``, `{"a":1,"b":[1,2]}`} {
		if got := m.breakArguments(args); json.Valid([]byte(got)) {
			t.Errorf("cut %q = %q, still JSON", args, got)
		}
	}
}

func TestOffersToolCalls(t *testing.T) {
	for body, want := range map[string]bool{
		`{"tools":[{"type":"function"}]}`:                                   true,
		`{"tools":[{"type":"function"}],"tool_choice":"auto"}`:              true,
		`{"tools":[{"type":"function"}],"tool_choice":{"type":"function"}}`: true,
		`{"tools":[{"type":"function"}],"tool_choice":"none"}`:              false,
		`{"messages":[{"role":"user","content":"x"}]}`:                      false,
		`not json`: false,
	} {
		if got := offersToolCalls([]byte(body)); got != want {
			t.Errorf("offersToolCalls(%s) = %v, want %v", body, got, want)
		}
	}
}
