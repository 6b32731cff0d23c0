package fakemodel

import (
	"fmt"
	"reflect"
	"testing"
)

func TestReadPolicySections(t *testing.T) {
	system := `You answer customers. Read this first.

RETURNS - Unused items can be returned within 30 days.
  Returns are free.
ORDER CHANGES - Until it ships.

Not a section - a sentence with a dash.
TONE - Warm and plain.`
	want := []policySection{
		{"RETURNS", "Unused items can be returned within 30 days. Returns are free."},
		{"ORDER CHANGES", "Until it ships."},
		{"TONE", "Warm and plain."},
	}
	if got := readPolicy(system); !reflect.DeepEqual(got, want) {
		t.Errorf("readPolicy:\n got %q\nwant %q", got, want)
	}
}

func TestSectionByTopic(t *testing.T) {
	c := &conversation{policy: readPolicy("PRODUCT - the catalogue name.\nPRODUCT QUESTIONS - from the product page.\nDELIVERY - 3 to 5 days.\nORDER CHANGES - until it ships.")}
	for intent, want := range map[string]string{
		"product_question": "PRODUCT QUESTIONS", "order_status": "DELIVERY", "change_order": "ORDER CHANGES", "refund": "",
	} {
		c.reading.Intent = intent
		s, ok := c.intentSection()
		if s.title != want || ok != (want != "") {
			t.Errorf("%s: section %q (%v), want %q", intent, s.title, ok, want)
		}
	}
}

func TestSignature(t *testing.T) {
	for msg, want := range map[string]string{
		"Hi,\n\nWhere is it?\n\nThanks,\nPriya":  "Priya",
		"Where is my pack?\n\nJohn":              "John",
		"Hello\n\nCheers, Sam O'Neil":            "Sam O'Neil",
		"Please help.\n\nThanks!":                "",
		"It broke on day two. very disappointed": "",
		"Order DR-104233\n\nRegards":             "",
	} {
		if got := signature(msg); got != want {
			t.Errorf("signature(%q) = %q, want %q", msg, got, want)
		}
	}
}

// TestResultObjectCached: a tool result decodes as encoding/json decodes it,
// the first time and from the cache after; what is not a JSON object is nil
// (and the agent reads it as text).
func TestResultObjectCached(t *testing.T) {
	const order = `{"order_id":"DR-777001","status":"shipped","events":[{"time":"09:00","place":"Leeds"}],"n":2}`
	want := map[string]any{"order_id": "DR-777001", "status": "shipped", "events": []any{map[string]any{"time": "09:00", "place": "Leeds"}}, "n": 2.0}
	for range 2 {
		if got := resultObject(order); !reflect.DeepEqual(got, want) {
			t.Errorf("resultObject = %v, want %v", got, want)
		}
	}
	if _, ok := toolResults.Get(order); !ok {
		t.Error("the decoded result was not cached")
	}
	for _, s := range []string{"null", `["a"]`, `"text"`, "service unavailable", `{"a":`, ""} {
		if got := resultObject(s); got != nil {
			t.Errorf("resultObject(%q) = %v, want nil", s, got)
		}
	}
}

// TestValueTextAsSprint: valueText writes every decoded JSON value as
// fmt.Sprint does.
func TestValueTextAsSprint(t *testing.T) {
	for _, v := range []any{"not_found", "", 3.0, 1e21, true, nil, []any{"a", 1.5}, map[string]any{"k": "v"}} {
		if got, want := valueText(v), fmt.Sprint(v); got != want {
			t.Errorf("valueText(%#v) = %q, fmt.Sprint %q", v, got, want)
		}
	}
}

// TestOrderSentence: the order service's facts as the agent writes them,
// with every combination of the optional fields.
func TestOrderSentence(t *testing.T) {
	for _, c := range []struct {
		fact map[string]any
		text []string
		want string
	}{
		{map[string]any{"order_id": "DR-1", "product": "Ember_5 bag", "placed": "2026-11-15", "status": "shipped"}, nil,
			"Your order DR-1 (the Ember 5 bag, placed on 2026-11-15) is shipped."},
		{map[string]any{"order_id": "DR-1", "product": "Ember", "status": "processing"}, nil,
			"Your order DR-1 (the Ember) is being prepared at our warehouse and has not shipped yet."},
		{map[string]any{"placed": "2026-11-15", "status": nil}, []string{"note one", "note two"},
			"Your order (placed on 2026-11-15) is in our system. note one note two"},
		{nil, []string{"plain text"}, "Your order is in our system. plain text"},
		{map[string]any{"order_id": 7.0, "status": "in_transit"}, nil, "Your order 7 is in transit."},
	} {
		if got := orderSentence(c.fact, c.text); got != c.want {
			t.Errorf("orderSentence(%v, %q)\n got %q\nwant %q", c.fact, c.text, got, c.want)
		}
	}
}
