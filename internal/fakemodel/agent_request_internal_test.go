package fakemodel

import (
	"fmt"
	"testing"
)

// TestToolSetsSharedUnchanged: a tools array is decoded once (toolSets) and
// shared; a request that narrows it with allowed_tools leaves the next
// request with the same array all of its functions and the same token count.
func TestToolSetsSharedUnchanged(t *testing.T) {
	tools := `[{"type":"function","function":{"name":"get_order","parameters":{"type":"object","properties":{"order_id":{"type":"string"}}}}},` +
		`{"type":"function","function":{"name":"get_delivery_status"}}]`
	body := func(choice string) []byte {
		return fmt.Appendf(nil, `{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":%s%s}`, tools, choice)
	}
	first, e := DecodeRequest(body(""))
	if e != nil {
		t.Fatal(e)
	}
	narrowed, e := DecodeRequest(body(`,"tool_choice":{"type":"allowed_tools","allowed_tools":{"mode":"auto","tools":[{"type":"function","function":{"name":"get_delivery_status"}}]}}`))
	if e != nil {
		t.Fatal(e)
	}
	if len(narrowed.Tools) != 1 || narrowed.Tools[0].Name != "get_delivery_status" {
		t.Fatalf("allowed_tools: %+v", narrowed.Tools)
	}
	again, e := DecodeRequest(body(""))
	if e != nil {
		t.Fatal(e)
	}
	if len(again.Tools) != 2 || again.Tools[0].Name != "get_order" || again.toolTokens != first.toolTokens || first.toolTokens == 0 {
		t.Errorf("after allowed_tools: tools %+v, %d tokens (first %d)", again.Tools, again.toolTokens, first.toolTokens)
	}
	if _, e := DecodeRequest([]byte(`{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"a b"}}]}`)); e == nil {
		t.Error("a bad function name passed")
	}
}

// TestCheckToolMessages: the order of tool calls and results, as OpenAI
// checks it, with its messages.
func TestCheckToolMessages(t *testing.T) {
	user := Message{Role: "user", Content: "x"}
	calls := func(ids ...string) Message {
		m := Message{Role: "assistant"}
		for _, id := range ids {
			m.ToolCalls = append(m.ToolCalls, ToolCall{ID: id, Name: "get_order"})
		}
		return m
	}
	result := func(id string) Message { return Message{Role: "tool", ToolCallID: id, Content: "{}"} }
	notFound := func(i int, id string) string {
		return fmt.Sprintf("messages[%d].role: Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls'; 'tool_call_id' '%s' was not found in 'tool_calls' of the previous assistant message.", i, id)
	}
	missing := func(i int, ids string) string {
		return fmt.Sprintf("messages[%d].role: An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", i, ids)
	}
	for _, c := range []struct {
		msgs []Message
		want string // "" for none
	}{
		{[]Message{user, calls("a", "b"), result("b"), result("a"), user}, ""},
		{[]Message{user, calls("a", "a"), result("a")}, ""},
		{[]Message{user, calls("a"), result("a"), calls("b"), result("b")}, ""},
		{[]Message{user, {Role: "assistant", Content: "hi"}, user}, ""},
		{[]Message{user, result("a")}, notFound(1, "a")},
		{[]Message{user, calls("a"), result("a"), result("a")}, notFound(3, "a")},
		{[]Message{user, calls("a"), user, result("a")}, missing(1, "a")},
		{[]Message{user, calls("c", "a", "b", "a"), result("a")}, missing(1, "b, c")},
		{[]Message{user, calls("a"), result("a"), calls("b")}, missing(3, "b")},
		{[]Message{user, calls("a"), result("b")}, notFound(2, "b")},
		{[]Message{user, calls("1", "2", "3", "4", "5", "6", "7", "8", "9", "10"), result("10"), result("1")}, missing(1, "2, 3, 4, 5, 6, 7, 8, 9")},
	} {
		got := ""
		if e := checkToolMessages(c.msgs); e != nil {
			got = *e.Param + ": " + e.Message
		}
		if got != c.want {
			t.Errorf("%+v:\n got %q\nwant %q", c.msgs, got, c.want)
		}
	}
}

// TestHexID: hexID writes what fmt.Sprintf("%0*x") writes.
func TestHexID(t *testing.T) {
	for _, v := range []uint64{0, 1, 0xf, 0x10, 0xabcdef, 1<<56 - 1, 1 << 56, 1<<64 - 1} {
		for _, width := range []int{14, 16} {
			if got, want := hexID("call_drill", v, width), fmt.Sprintf("call_drill%0*x", width, v); got != want {
				t.Errorf("hexID(%#x, %d) = %q, want %q", v, width, got, want)
			}
		}
	}
}
