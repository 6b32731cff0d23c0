package fakemodel

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// The agent's writing: the interpretation (step 1) and the reply to the
// customer (step 4), as a support model writes them.
//
// The interpretation is a paragraph: who wrote and what they need, the
// intent, order number, product and urgency with the reason for it, the
// policy section that applies, and the plan (which tools, in what order,
// and when to hand over).
//
// The reply is a support reply of a few hundred tokens: a greeting (by the
// name the customer signed with), what they asked, what the tools found
// (the order, the parcel, its latest scan), what happens next, the policy
// that applies quoted from the system prompt, and a sign-off. When the
// system prompt asks a length (a REPLY LENGTH section, "about N tokens"),
// a shorter reply adds the related policy the customer will want to know
// (relatedTopics), a sentence at a time, up to about that length. A
// handover reply says why, the HandoverSentence, and what happens next
// (the policy's HANDOVER section when it has one).
//
// The policy is read from the request's system (or developer) messages,
// never known beforehand: a section is a line opening with a title in
// capitals and " - " (as in "RETURNS - Unused items can be returned …"),
// continued by the lines under it up to a blank line or the next title.
// The section for a question is the one whose title names its topic
// (policyTopics); a system prompt with no such section gives a reply
// without a policy paragraph.

// policySection is one titled section of a system prompt.
type policySection struct{ title, text string }

// policies caches each system message's sections by its text: a chat
// resends the same system prompt on every turn. Cached sections are shared
// and only read.
var policies = newLRU[[]policySection](1<<20, 256<<10, func(ps []policySection) int {
	n := 0
	for _, p := range ps {
		n += len(p.title) + len(p.text) + 32
	}
	return n
})

// policyOf is readPolicy, read once per system message text.
func policyOf(system string) []policySection {
	if ps, ok := policies.Get(system); ok {
		return ps
	}
	ps := readPolicy(system)
	policies.Put(system, ps)
	return ps
}

// readPolicy returns the titled sections of a system message.
func readPolicy(system string) []policySection {
	var out []policySection
	var cur *policySection
	for line := range strings.SplitSeq(system, "\n") {
		trimmed := strings.TrimSpace(line)
		if title, text, ok := sectionTitle(line); ok {
			out = append(out, policySection{title: title, text: text})
			cur = &out[len(out)-1]
			continue
		}
		if trimmed == "" {
			cur = nil
			continue
		}
		if cur != nil {
			cur.text += " " + trimmed
		}
	}
	return out
}

// sectionTitle splits a line that opens a section, "TITLE - text", where
// the title is capital letters, spaces, dashes and underscores at the
// line's start.
func sectionTitle(line string) (title, text string, ok bool) {
	head, rest, found := strings.Cut(line, " - ")
	if !found || head == "" || head != strings.TrimLeft(head, " \t") {
		return "", "", false
	}
	letters := 0
	for _, r := range head {
		switch {
		case r >= 'A' && r <= 'Z':
			letters++
		case r == ' ' || r == '_' || r == '-':
		default:
			return "", "", false
		}
	}
	if letters < 3 {
		return "", "", false
	}
	return head, strings.TrimSpace(rest), true
}

// policyTopics are, per intent, the words a policy section's title names
// it by (all of them, lower-cased prefixes of its words).
var policyTopics = map[string][]string{
	"return":           {"return"},
	"refund":           {"refund"},
	"exchange":         {"exchange"},
	"order_status":     {"deliver"},
	"cancel":           {"cancel"},
	"change_order":     {"change"},
	"warranty_claim":   {"warrant"},
	"product_question": {"product", "question"},
	"complaint":        {"complaint"},
	"feedback":         {"feedback"},
}

// titleSeparators split a section title's words apart, as spaces do.
var titleSeparators = strings.NewReplacer("_", " ", "-", " ")

// section returns the policy's section whose title names all the topic
// words, if any.
func (c *conversation) section(topic ...string) (policySection, bool) {
	for _, s := range c.policy {
		words := strings.Fields(strings.ToLower(titleSeparators.Replace(s.title)))
		all := len(topic) > 0
		for _, t := range topic {
			has := false
			for _, w := range words {
				has = has || strings.HasPrefix(w, t)
			}
			all = all && has
		}
		if all {
			return s, true
		}
	}
	return policySection{}, false
}

// intentSection is the policy section of the question's intent.
func (c *conversation) intentSection() (policySection, bool) {
	return c.section(policyTopics[c.reading.Intent]...)
}

// signature is the name a customer's message is signed with: its last
// line (after a closing like "Thanks,"), when that is one or two
// capitalised words; "" otherwise.
func signature(msg string) string {
	lines := strings.Split(strings.TrimSpace(msg), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if i := strings.LastIndex(last, ","); i >= 0 {
		last = strings.TrimSpace(last[i+1:])
	}
	last = strings.TrimLeft(last, "-– ")
	words := strings.Fields(last)
	if len(words) == 0 || len(words) > 2 {
		return ""
	}
	for _, w := range words {
		r := []rune(w)
		if !unicode.IsUpper(r[0]) {
			return ""
		}
		for _, x := range r {
			if !unicode.IsLetter(x) && x != '.' && x != '\'' && x != '-' {
				return ""
			}
		}
	}
	switch strings.ToLower(strings.TrimRight(words[0], ".")) {
	case "thanks", "thank", "cheers", "regards", "best", "sincerely", "thx", "ty":
		return ""
	}
	return last
}

// intentNeeds says what a customer with the intent needs from the shop.
var intentNeeds = map[string]string{
	"return":           "to send an item back",
	"refund":           "their money back",
	"exchange":         "to swap an item for another",
	"order_status":     "to know where their order is and when it will arrive",
	"cancel":           "to cancel their order",
	"change_order":     "to change their order before it ships",
	"warranty_claim":   "a faulty item repaired or replaced under warranty",
	"product_question": "an answer to a question about a product",
	"complaint":        "us to know about a problem and put it right",
	"feedback":         "to tell us what they think; nothing needs doing",
}

// intentAbout is what the customer wrote about, for the reply's opening.
var intentAbout = map[string]string{
	"return":           "returning",
	"refund":           "a refund for",
	"exchange":         "exchanging",
	"order_status":     "where your order is",
	"cancel":           "cancelling",
	"change_order":     "changing",
	"warranty_claim":   "a fault with",
	"product_question": "your question about",
	"complaint":        "what went wrong with",
	"feedback":         "your feedback on",
}

// urgencyReason is why a question has its urgency, as the shop's reading
// rules put it.
func urgencyReason(u string) string {
	switch u {
	case "high":
		return "a deadline that has not passed, a safety risk or money taken in error"
	case "low":
		return "nothing needs doing soon"
	}
	return "no deadline or safety risk is stated, and tone alone does not raise it"
}

// firstSentence is text up to and including its first full stop.
func firstSentence(text string) string {
	if i := strings.Index(text, ". "); i >= 0 {
		return text[:i+1]
	}
	return text
}

// interpretation is the first step's content: the agent's reading of the
// question and its plan, a paragraph.
func (c *conversation) interpretation() string {
	a := c.reading
	var b strings.Builder
	who := "The customer"
	if c.customer != "" {
		who = "The customer, " + c.customer + ","
	}
	need := intentNeeds[a.Intent]
	if need == "" {
		need = "help with their order"
	}
	fmt.Fprintf(&b, "Reading the customer's message: intent %s, urgency %s", a.Intent, a.Urgency)
	if a.Product != "" {
		fmt.Fprintf(&b, ", product %s", a.Product)
	}
	if a.OrderNumber == "" {
		b.WriteString(", no order number. ")
	} else {
		fmt.Fprintf(&b, ", order %s. ", a.OrderNumber)
	}
	fmt.Fprintf(&b, "%s wants %s", who, need)
	if a.Product != "" {
		fmt.Fprintf(&b, " (the %s)", a.Product)
	}
	fmt.Fprintf(&b, ". Urgency is %s: %s. ", a.Urgency, urgencyReason(a.Urgency))
	if s, ok := c.intentSection(); ok {
		fmt.Fprintf(&b, "The policy that applies is %s: %s ", s.title, firstSentence(s.text))
	}
	if a.OrderNumber == "" {
		b.WriteString("Plan: I cannot look anything up without the order number, so I will ask the customer for it (it looks like DR-123456) and explain what I will check once I have it.")
		return b.String()
	}
	fmt.Fprintf(&b, "Plan: look up the order (%s) to confirm the product, its status and when it was placed; then its delivery (%s) to see where the parcel is and when it is expected", toolOrder, toolDelivery)
	if c.askTracking {
		fmt.Fprintf(&b, ", with the carrier's scans (%s) since the customer asks about tracking", toolTracking)
	}
	b.WriteString("; then answer with what I found, what happens next and the policy that applies. ")
	switch {
	case c.needsDelivery():
		b.WriteString("The answer needs both the order and the delivery: if either cannot be looked up, I will hand the conversation over to a person.")
	case c.needsOrder():
		b.WriteString("The answer needs the order: if it cannot be looked up I will hand the conversation over; without the delivery I can still answer and say so.")
	default:
		b.WriteString("I can answer from the policy even if a lookup fails, and will say so.")
	}
	return b.String()
}

// greeting opens a reply: by the customer's name when they signed.
func (c *conversation) greeting() string {
	if c.customer != "" {
		return "Hi " + c.customer + ",\n\n"
	}
	return "Hello,\n\n"
}

// regards ends every reply; signOff closes an answer, a handover closes
// with its apology.
const (
	regards = "\n\nKind regards,\nThe support team"
	signOff = "\n\nIf there is anything else I can help with, just reply here." + regards
)

// opening thanks the customer and says what they wrote about.
func (c *conversation) opening() string {
	about := intentAbout[c.reading.Intent]
	if about == "" {
		about = "your order"
	}
	what := c.reading.Product
	switch {
	case c.reading.Intent == "order_status":
		what = ""
	case what == "" && c.orderNumber() != "":
		what = "order " + c.orderNumber()
	case what == "":
		what = "your order"
	default:
		what = "the " + what
	}
	return strings.TrimSpace("Thank you for getting in touch about "+about+" "+what) + ". "
}

// finalAnswer is the reply to the customer from what the conversation
// holds, escalating when a fact the question needs is missing.
func (c *conversation) finalAnswer() string {
	num := c.orderNumber()
	var b strings.Builder
	b.WriteString(c.greeting())
	if num == "" {
		b.WriteString("Thanks for your message. Could you tell me your order number (it looks like DR-123456, and it is on your order confirmation email)? With it I can look up your order and its delivery and tell you exactly where things stand.")
		if s, ok := c.intentSection(); ok {
			fmt.Fprintf(&b, "\n\nIn the meantime, here is how it works: %s", s.text)
		}
		b.WriteString(signOff)
		return b.String()
	}
	if c.orders.notFound {
		fmt.Fprintf(&b, "I could not find an order with the number %s. Could you check the number on your order confirmation (it looks like DR-123456)? If the order was placed under another email address or by someone else, their order number works too.", num)
		b.WriteString(signOff)
		return b.String()
	}
	b.WriteString(c.opening())
	if !c.orders.have() {
		if c.needsOrder() {
			fmt.Fprintf(&b, "I could not reach our order system to look up order %s. %s, who will get back to you about it.", num, HandoverSentence)
			c.handoverNext(&b)
			return b.String()
		}
		fmt.Fprintf(&b, "I could not look up order %s just now, so this answer does not rely on it.", num)
	} else {
		b.WriteString(orderSentence(c.orders.facts[toolOrder], c.orders.text))
	}
	switch {
	case c.carrier.have():
		b.WriteString(" ")
		b.WriteString(deliverySentence(c.carrier.facts[toolDelivery], c.carrier.text))
		if ev := lastEvent(c.carrier.facts[toolTracking]); ev != "" {
			fmt.Fprintf(&b, " Latest tracking event: %s.", ev)
		}
	case c.orders.have() && c.needsDelivery():
		fmt.Fprintf(&b, " I could not get the delivery status of order %s from the carrier. %s, who will check it with the carrier and get back to you.", num, HandoverSentence)
		c.handoverNext(&b)
		return b.String()
	case c.orders.have() && c.carrier.givenUp():
		b.WriteString(" Delivery tracking is unavailable just now, so I have answered without it.")
	}
	b.WriteString("\n\n")
	b.WriteString(c.nextStep(c.reading.Intent))
	if c.reading.Urgency == "high" {
		b.WriteString(" I have marked your request as urgent, so the team handles it first.")
	}
	if s, ok := c.intentSection(); ok {
		fmt.Fprintf(&b, "\n\nHow this works under our %s policy: %s", strings.ToLower(s.title), s.text)
	}
	c.fillTo(&b, c.replyLength()-countTokens(signOff))
	b.WriteString(signOff)
	return b.String()
}

// relatedTopics are, per intent, the intents whose policy a customer asking
// it will want to know next, most related first.
var relatedTopics = map[string][]string{
	"return":           {"refund", "exchange", "warranty_claim"},
	"refund":           {"return", "order_status", "complaint"},
	"exchange":         {"return", "refund", "order_status"},
	"order_status":     {"change_order", "cancel", "refund"},
	"cancel":           {"refund", "return", "change_order"},
	"change_order":     {"order_status", "cancel", "exchange"},
	"warranty_claim":   {"return", "complaint", "exchange"},
	"product_question": {"exchange", "return", "warranty_claim"},
	"complaint":        {"refund", "warranty_claim", "return"},
	"feedback":         {"product_question", "return", "exchange"},
}

// replyLength is the answer length the system prompt asks for, in tokens:
// its REPLY LENGTH section's "about N tokens"; 0 when it asks none.
func (c *conversation) replyLength() int {
	s, ok := c.section("reply", "length")
	if !ok {
		return 0
	}
	_, rest, ok := strings.Cut(s.text, "about ")
	if !ok {
		return 0
	}
	f := strings.Fields(rest)
	if len(f) < 2 || !strings.HasPrefix(f[1], "token") {
		return 0
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// fillTo adds to a reply shorter than want tokens the related policy the
// customer will want to know (relatedTopics), a sentence at a time, until
// it reaches about want: a reply written to the length its prompt asks.
func (c *conversation) fillTo(b *strings.Builder, want int) {
	if want <= 0 || countTokens(b.String()) >= want {
		return
	}
	for _, topic := range relatedTopics[c.reading.Intent] {
		s, ok := c.section(policyTopics[topic]...)
		if !ok {
			continue
		}
		fmt.Fprintf(b, "\n\nGood to know, from our %s policy:", strings.ToLower(s.title))
		for sentence := range strings.SplitAfterSeq(s.text, ". ") {
			b.WriteString(" ")
			b.WriteString(strings.TrimSpace(sentence))
			if countTokens(b.String()) >= want {
				return
			}
		}
	}
}

// handoverNext ends a handover reply: what happens next (the policy's
// HANDOVER section, else a sentence of the agent's own) and the sign-off.
func (c *conversation) handoverNext(b *strings.Builder) {
	b.WriteString("\n\n")
	if s, ok := c.section("handover"); ok {
		b.WriteString(s.text)
	} else {
		b.WriteString("They will have everything I found so far, so you will not need to explain it again.")
	}
	if s, ok := c.intentSection(); ok {
		fmt.Fprintf(b, "\n\nFor reference, our %s policy: %s", strings.ToLower(s.title), firstSentence(s.text))
	}
	b.WriteString("\n\nI am sorry I could not settle this myself right now." + regards)
}

// orderSentence says what the order service found, in words: a JSON
// result's number, product, status and date, or a text result whole.
func orderSentence(fact map[string]any, text []string) string {
	var b strings.Builder
	b.Grow(128)
	b.WriteString("Your order")
	if id := field(fact, "order_id"); id != "" {
		b.WriteString(" ")
		b.WriteString(id)
	}
	product, placed := field(fact, "product"), field(fact, "placed")
	if product != "" || placed != "" {
		b.WriteString(" (")
		if product != "" {
			b.WriteString("the ")
			b.WriteString(product)
		}
		if placed != "" {
			if product != "" {
				b.WriteString(", ")
			}
			b.WriteString("placed on ")
			b.WriteString(placed)
		}
		b.WriteString(")")
	}
	switch st := field(fact, "status"); st {
	case "":
		b.WriteString(" is in our system")
	case "processing":
		b.WriteString(" is being prepared at our warehouse and has not shipped yet")
	default:
		b.WriteString(" is ")
		b.WriteString(st)
	}
	b.WriteString(".")
	for _, t := range text {
		b.WriteString(" ")
		b.WriteString(t)
	}
	return b.String()
}

// deliverySentence says where the parcel is: "Delivery: …", from the
// carrier's result.
func deliverySentence(fact map[string]any, text []string) string {
	var parts []string
	if cr := field(fact, "carrier"); cr != "" {
		parts = append(parts, "your parcel is with "+cr)
	}
	if st := field(fact, "status"); st != "" {
		parts = append(parts, "status "+st)
	}
	if eta := field(fact, "eta"); eta != "" {
		parts = append(parts, "expected on "+eta)
	}
	if u := field(fact, "last_update"); u != "" {
		parts = append(parts, "last updated "+u)
	}
	parts = append(parts, text...)
	if len(parts) == 0 {
		return "Delivery: the carrier has your parcel."
	}
	return "Delivery: " + strings.Join(parts, ", ") + "."
}

// field is a result's field as text with underscores as spaces, "" when
// absent.
func field(fact map[string]any, key string) string {
	v, ok := fact[key]
	if !ok || v == nil {
		return ""
	}
	return strings.ReplaceAll(valueText(v), "_", " ")
}

// lastEvent is the last of a tracking result's events, as text.
func lastEvent(fact map[string]any) string {
	evs, _ := fact["events"].([]any)
	if len(evs) == 0 {
		return ""
	}
	ev, _ := evs[len(evs)-1].(map[string]any)
	var parts []string
	for _, k := range []string{"time", "place", "event"} {
		if v, ok := ev[k]; ok {
			parts = append(parts, valueText(v))
		}
	}
	return strings.Join(parts, " ")
}

// shipped reports whether the order service says the order has left the
// warehouse.
func (c *conversation) shipped() bool {
	st := field(c.orders.facts[toolOrder], "status")
	return st == "shipped" || st == "delivered"
}

// nextStep is what the agent tells the customer will happen, by intent
// and, for a cancellation or a change, whether the order has shipped.
func (c *conversation) nextStep(intent string) string {
	if (intent == "cancel" || intent == "change_order") && c.shipped() {
		return "Your order has already left our warehouse, so I cannot stop it any more; the policy below says what we can still do, and I have noted your request on the order."
	}
	switch intent {
	case "return", "refund", "exchange":
		return "I have started the " + intent + " for you; you will get an email with the next steps within the hour, including anything you need to print."
	case "cancel":
		return "I have asked for the order to be cancelled; you will get a confirmation by email once the warehouse has stopped it."
	case "change_order":
		return "I have passed your change on to the warehouse; you will get a confirmation by email once it is made."
	case "warranty_claim", "complaint":
		return "I have logged this with our team, who will follow up by email; a reply with a photo or a short description of what happened will help them."
	case "order_status":
		return "I will keep an eye on the parcel for you; if it has not moved by its expected date, reply here and we will open a trace with the carrier."
	}
	return "I hope that answers your question."
}
