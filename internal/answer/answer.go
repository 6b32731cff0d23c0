// Package answer defines a triage answer — the four fields a model fills in
// for one support email — and the shop's closed sets of values.
//
// It holds no emails and no answer key: the fake model imports this package,
// never emails, so it cannot reach the truth even by accident. It imports
// nothing else from drill.
package answer

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Answer is one triage of an email: the four fields a model fills in. The JSON
// tags are the field names models are asked to answer with.
type Answer struct {
	Intent      string `json:"intent"`
	OrderNumber string `json:"order_number"`
	Product     string `json:"product"`
	Urgency     string `json:"urgency"`
}

// Intents is the closed set of values for Answer.Intent.
var Intents = []string{
	"return", "refund", "exchange", "order_status", "cancel", "change_order",
	"warranty_claim", "product_question", "complaint", "feedback",
}

// Products is the shop's closed catalogue: the values for Answer.Product
// (which may also be empty when an email names no catalogue product).
var Products = []string{
	"Trailhead 2 Tent",
	"Summit 4 Tent",
	"Cloudrest Sleeping Pad",
	"Nordkapp -10 Sleeping Bag",
	"Ember 5 Sleeping Bag",
	"Ridgeline 45 Backpack",
	"Scout 22 Daypack",
	"Alpine GTX Boots",
	"Trail Runner 3 Shoes",
	"Stormshell Rain Jacket",
	"Firn Down Jacket",
	"Blaze Camp Stove",
	"Glacier Water Filter",
	"Lumen 400 Headlamp",
	"Carbon Trekking Poles",
	"Kettle Cook Set",
	"Canyon Camp Chair",
	"Vertex Climbing Harness",
	"Bearproof Food Canister",
	"Merino Base Layer",
	"Hydro 1L Bottle",
}

// Urgencies is the closed set of values for Answer.Urgency, least urgent first.
var Urgencies = []string{"low", "normal", "high"}

// Fields names the four answer fields in their fixed order, as used in
// reports and JSON ("intent", "order_number", "product", "urgency").
var Fields = [4]string{"intent", "order_number", "product", "urgency"}

var orderDigits = regexp.MustCompile(`^(?:DR)?(\d{6})$`)

// orderForm is the shop's order-number form: DR, a dash, six digits.
var orderForm = regexp.MustCompile(`^DR-\d{6}$`)

// NormalizeOrderNumber returns an order number in the shop's form DR-123456
// when s holds one written any of the usual ways ("dr 123-456", "#123456",
// "123456"); otherwise s trimmed and upper-cased.
func NormalizeOrderNumber(s string) string {
	if canonicalOrder(s) {
		return s // already DR-123456, as nearly every answer and truth reads: nothing to build
	}
	s = strings.ToUpper(strings.TrimSpace(s))
	var b strings.Builder
	for _, r := range s {
		if (r >= '0' && r <= '9') || (r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		}
	}
	if m := orderDigits.FindStringSubmatch(b.String()); m != nil {
		return "DR-" + m[1]
	}
	return s
}

// canonicalOrder reports whether s is an order number in the shop's form,
// DR-123456, which NormalizeOrderNumber returns as it is.
func canonicalOrder(s string) bool {
	if len(s) != 9 || s[:3] != "DR-" {
		return false
	}
	for i := 3; i < 9; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Normalize returns a with every field in canonical form: intent and urgency
// lower-case and trimmed, the order number as DR-123456, and the product as
// its catalogue spelling when it matches one case-insensitively.
func Normalize(a Answer) Answer {
	n := Answer{
		Intent:      strings.ToLower(strings.TrimSpace(a.Intent)),
		OrderNumber: NormalizeOrderNumber(a.OrderNumber),
		Product:     strings.TrimSpace(a.Product),
		Urgency:     strings.ToLower(strings.TrimSpace(a.Urgency)),
	}
	n.Intent = strings.ReplaceAll(strings.ReplaceAll(n.Intent, " ", "_"), "-", "_")
	for _, p := range Products {
		if strings.EqualFold(p, n.Product) {
			n.Product = p
			break
		}
	}
	return n
}

// Field returns the value of the named field ("intent", "order_number",
// "product" or "urgency"), or "" for another name.
func (a Answer) Field(name string) string {
	switch name {
	case "intent":
		return a.Intent
	case "order_number":
		return a.OrderNumber
	case "product":
		return a.Product
	case "urgency":
		return a.Urgency
	}
	return ""
}

// SetField sets the named field to v; it reports false for an unknown name.
func (a *Answer) SetField(name, v string) bool {
	switch name {
	case "intent":
		a.Intent = v
	case "order_number":
		a.OrderNumber = v
	case "product":
		a.Product = v
	case "urgency":
		a.Urgency = v
	default:
		return false
	}
	return true
}

// IsField reports whether name is one of the four answer fields.
func IsField(name string) bool { return slices.Contains(Fields[:], name) }

// Valid reports whether a's intent, product and urgency are in the closed
// sets (product may be empty) and its order number is empty or, after
// normalisation, exactly DR followed by a dash and six digits.
func (a Answer) Valid() error {
	n := Normalize(a)
	if !slices.Contains(Intents, n.Intent) {
		return fmt.Errorf("intent %q is not one of %s", a.Intent, strings.Join(Intents, ", "))
	}
	if n.Product != "" && !slices.Contains(Products, n.Product) {
		return fmt.Errorf("product %q is not in the catalogue (%s, or empty)", a.Product, strings.Join(Products, "; "))
	}
	if !slices.Contains(Urgencies, n.Urgency) {
		return fmt.Errorf("urgency %q is not one of %s", a.Urgency, strings.Join(Urgencies, ", "))
	}
	if n.OrderNumber != "" && !orderForm.MatchString(n.OrderNumber) {
		return fmt.Errorf("order number %q is not of the form DR-123456 (DR, a dash, six digits) or empty", a.OrderNumber)
	}
	return nil
}
