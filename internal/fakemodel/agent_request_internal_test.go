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
