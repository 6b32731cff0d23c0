// Package emails holds drill's workload: 120 made-up support emails to an
// outdoor-gear shop, each with its known right answer, and the shop's written
// triage rules. Both are embedded in the binary.
//
// The emails keep a fixed order (IDs 1..120); the workload sends them in that
// order, two a second, so email 35 — Marcus, who writes "URGENT" about
// returning a sleeping pad but has no deadline and no safety risk — is sent at
// 17.0 s.
//
// The package imports nothing else from drill.
package emails

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

//go:embed emails.jsonl
var emailsJSONL []byte

//go:embed rules.md
var rulesText string

// Answer is one triage of an email: the four fields a model fills in. The JSON
// tags are the field names models are asked to answer with.
type Answer struct {
	Intent      string `json:"intent"`
	OrderNumber string `json:"order_number"`
	Product     string `json:"product"`
	Urgency     string `json:"urgency"`
}

// Email is one support email with its known right answer.
type Email struct {
	ID      int    `json:"id"` // 1-based position in the data set
	From    string `json:"from"`
	Subject string `json:"subject"`
	Body    string `json:"body"`
	Truth   Answer `json:"truth"`
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

var all = mustLoad()

func mustLoad() []Email {
	var out []Email
	sc := bufio.NewScanner(bytes.NewReader(emailsJSONL))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e Email
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			panic(fmt.Sprintf("emails: bad embedded line %d: %v", len(out)+1, err))
		}
		if e.ID != len(out)+1 {
			panic(fmt.Sprintf("emails: embedded email %d has id %d", len(out)+1, e.ID))
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		panic(err)
	}
	return out
}

// All returns the 120 emails in their fixed order. It returns a fresh copy on
// every call, so callers may modify it freely.
func All() []Email {
	out := make([]Email, len(all))
	copy(out, all)
	return out
}

// Len is the number of emails in the data set (120).
func Len() int { return len(all) }

// ByID returns the email with the given 1-based ID.
func ByID(id int) (Email, bool) {
	if id < 1 || id > len(all) {
		return Email{}, false
	}
	return all[id-1], true
}

// Rules returns the shop's written triage rules, the text that goes into the
// system prompt.
func Rules() string { return rulesText }

// Text is the email as a model sees it: From and Subject lines, a blank line
// and the body.
func (e Email) Text() string {
	return "From: " + e.From + "\nSubject: " + e.Subject + "\n\n" + e.Body
}

var orderDigits = regexp.MustCompile(`^(?:DR)?(\d{6})$`)

// orderForm is the shop's order-number form after normalisation.
var orderForm = regexp.MustCompile(`^DR-\d{6}$`)

// NormalizeOrderNumber returns an order number in the shop's form DR-123456
// when s holds one written any of the usual ways ("dr 123-456", "#123456",
// "123456"); otherwise s trimmed and upper-cased.
func NormalizeOrderNumber(s string) string {
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

// Valid reports whether a's intent, product and urgency are in the closed
// sets (product may be empty) and its order number is empty or of the form
// DR-123456 after normalisation.
func (a Answer) Valid() error {
	n := Normalize(a)
	if !contains(Intents, n.Intent) {
		return fmt.Errorf("intent %q is not one of %s", a.Intent, strings.Join(Intents, ", "))
	}
	if n.Product != "" && !contains(Products, n.Product) {
		return fmt.Errorf("product %q is not in the catalogue", a.Product)
	}
	if !contains(Urgencies, n.Urgency) {
		return fmt.Errorf("urgency %q is not one of %s", a.Urgency, strings.Join(Urgencies, ", "))
	}
	if n.OrderNumber != "" && !orderForm.MatchString(n.OrderNumber) {
		return fmt.Errorf("order number %q is not of the form DR-123456", a.OrderNumber)
	}
	return nil
}

func contains(set []string, s string) bool {
	for _, x := range set {
		if x == s {
			return true
		}
	}
	return false
}
