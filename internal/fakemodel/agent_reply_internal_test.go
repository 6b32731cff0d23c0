package fakemodel

import (
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
