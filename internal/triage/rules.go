package triage

import (
	"regexp"
	"strings"
	"time"

	"github.com/drill-dev/drill/emails"
)

// rulesIntents maps keywords to an intent of the shop's rules
// (emails/rules.md); checked in order against the email's lower-cased
// subject and body, the first match wins.
var rulesIntents = []struct {
	intent string
	words  []string
}{
	{"cancel", []string{"cancel"}},
	{"refund", []string{"refund", "money back", "charged twice", "double charge", "charged me twice", "reimburse"}},
	{"exchange", []string{"exchange", "swap", "different size", "another size", "instead of"}},
	{"return", []string{"return", "send it back", "send back"}},
	{"warranty_claim", []string{"warranty", "broke", "faulty", "defective", "stopped working", "failed", "repair", "leak"}},
	{"change_order", []string{"change my order", "change the address", "delivery address", "add an item", "add to my order"}},
	{"order_status", []string{"where is", "not arrived", "hasn't arrived", "has not arrived", "shipped", "tracking", "when will"}},
	{"feedback", []string{"thank", "love", "great", "suggestion"}},
	{"complaint", []string{"disappointed", "unacceptable", "terrible", "worst", "complain"}},
	{"product_question", []string{"?"}},
}

// SafetyWords are the words of a safety risk in the shop's rules (fire,
// flames, burns, an overheating or swollen battery, anyone injured), as the
// rules rung spots them in an email's lower-cased subject and body.
var SafetyWords = []string{"fire", "flame", "gas leak", "burn", "overheat", "swollen", "injur"}

// hasteWords are the other words that make the rules rung's urgency high:
// money taken in error and a stated deadline ("by" a day, tomorrow, tonight
// or the weekend; a departure or a trip).
var hasteWords = append([]string{"charged twice", "by tomorrow", "by tonight", "by the weekend", "leaving on", "my trip on", "departure"},
	byDays()...)

// byDays are the deadlines "by monday" … "by sunday".
func byDays() []string {
	var out []string
	for d := time.Sunday; d <= time.Saturday; d++ {
		out = append(out, "by "+strings.ToLower(d.String()))
	}
	return out
}

// orderRE finds the order number in the ways customers write it
// ("DR 123456", "#123456", "order 123456", "dr-123-456", "order nr 123-456").
var orderRE = regexp.MustCompile(`(?i)(?:\bdr[- ]?|#|\border(?: nr| number| no\.?)? ?)(\d{3})-?(\d{3})\b`)

// Text is the text keyword rules read: the email's subject and body,
// lower-cased.
func Text(e emails.Email) string { return strings.ToLower(e.Subject + "\n" + e.Body) }

// Rules is the rules rung's keyword triage, with no model call. It finds
// the order number by its pattern, the first catalogue product named in the
// text, an intent by keywords, and urgency from words of haste and safety.
// It never fails; its quality is measured like any rung's.
func Rules(e emails.Email) emails.Answer {
	text := Text(e)
	var a emails.Answer
	a.Intent = "complaint"
	for _, r := range rulesIntents {
		if ContainsAny(text, r.words) {
			a.Intent = r.intent
			break
		}
	}
	if m := orderRE.FindStringSubmatch(text); m != nil {
		a.OrderNumber = "DR-" + m[1] + m[2]
	}
	for _, p := range emails.Products {
		if strings.Contains(text, strings.ToLower(p)) {
			a.Product = p
			break
		}
	}
	a.Urgency = "normal"
	switch {
	case ContainsAny(text, SafetyWords) || ContainsAny(text, hasteWords):
		a.Urgency = "high"
	case a.Intent == "product_question" || a.Intent == "feedback" || ContainsAny(text, []string{"no rush", "no hurry"}):
		a.Urgency = "low"
	}
	return a
}

// ContainsAny reports whether s contains any of words.
func ContainsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
