// Package route decides an email's class before any model call, the way a
// production system would: by the rules rung's keyword triage (intent,
// urgency, safety words), by keywords or a pattern on the subject and body,
// or by the class column of a team's email file. The first rule that
// matches wins; the rest go to the default class. Classification never reads
// an email's right answer; TruthClass, used only to score the classifier
// afterwards, puts the right answer in the triage's place.
package route

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/answer"
	"github.com/drill-dev/drill/internal/triage"
)

// DefaultClass is the class of the emails no rule matches.
const DefaultClass = "default"

// Match says which emails a rule takes. Every condition it sets must hold;
// a condition listing values holds when any of them does. A Match with no
// condition takes every email.
type Match struct {
	// Intent holds when the rules triage's intent is one of these.
	Intent []string `json:"intent,omitempty" yaml:"intent"`
	// Urgency holds when the rules triage's urgency is one of these.
	Urgency []string `json:"urgency,omitempty" yaml:"urgency"`
	// Safety holds when the subject or body names a safety risk
	// (triage.SafetyWords).
	Safety bool `json:"safety,omitempty" yaml:"safety"`
	// Keywords holds when the subject or body contains any of these,
	// ignoring case.
	Keywords []string `json:"keywords,omitempty" yaml:"keywords"`
	// Pattern holds when the regular expression (Go syntax, RE2) matches
	// the subject, a newline and the body.
	Pattern string `json:"pattern,omitempty" yaml:"pattern"`
	// Class holds when the email's class column (a team's file) is one of
	// these.
	Class []string `json:"class,omitempty" yaml:"class"`
}

// Rule is one class and the emails it takes.
type Rule struct {
	Class string `json:"class"`
	Match Match  `json:"match"`
}

// Classifier puts each email in a class. It is safe for concurrent use.
type Classifier struct {
	rules   []compiled
	classes []string
}

type compiled struct {
	Rule
	re       *regexp.Regexp
	keywords []string
}

// Builtin are classes `--route CLASS=POLICY` may name without a drill file,
// over the built-in emails' shop.
var Builtin = map[string]Match{
	// A safety risk: fire, burns, a swollen battery, anyone injured.
	"safety": {Safety: true},
	// Money taken in error (any case): a payment taken twice, however a
	// customer words it, or a charge for a cancelled order.
	"billing-error": {Pattern: BillingErrorPattern},
	// Sending an item back or swapping it.
	"returns": {Intent: []string{"return", "exchange"}},
	// Where an order is.
	"order-status": {Intent: []string{"order_status"}},
}

// BillingErrorPattern is the built-in billing-error class's rule, written
// from how customers say money was taken in error rather than from any one
// email: a word for taking money (charged, billed, debited, taken, a
// payment, a transaction, "my card got hit") within a few words of a word
// for doing it twice (twice, two times, double, duplicate, two identical
// payments), in either order and in one sentence; or a cancellation and a
// charge (or the money) in one sentence. It errs towards the class: an
// email that only mentions such a charge ("I thought you had charged me
// twice, but…") is kept off the backup too, which costs a person's reply,
// never a wrong answer from the weaker model.
const BillingErrorPattern = `(?is)\b(?:charg\w*|bill(?:ed|ing)?|debit\w*|paid|payments?|pay|taken|took|hit|transactions?|withdrawn|deducted)\b[^.!?\n]{0,40}\b(?:twice|two times|2 times|double\w*|duplicat\w*|two (?:identical |separate |same )?(?:payments|charges|transactions|amounts))|\b(?:twice|two times|2 times|double\w*|duplicat\w*|two (?:identical |separate |same )?(?:payments|charges|transactions|amounts))\b[^.!?\n]{0,40}\b(?:charg\w*|bill(?:ed|ing)?|debit\w*|paid|payments?|pay|taken|took|hit|transactions?|withdrawn|deducted)\b|\bcancel\w*\b[^.!?\n]{0,120}\b(?:charg\w*|billed|debited|taken|paid|money)\b|\b(?:charg\w*|billed|debited)\b[^.!?\n]{0,40}\bcancel\w*`

// BuiltinNever reports whether the shop's checklist keeps a built-in
// class off the backup model: a safety report and money taken in error
// are answered by the primary or by a person, never by the weaker model.
func BuiltinNever(class string) bool { return class == "safety" || class == "billing-error" }

// BuiltinNames lists the built-in classes in the order they are matched
// when all are routed: a safety report first, whatever else it asks for.
func BuiltinNames() []string { return []string{"safety", "billing-error", "returns", "order-status"} }

var className = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// ValidClassName says what is wrong with a class name, or nil: lower-case
// letters, digits, dashes and underscores, starting with a letter, so that
// hypotheses can name its figures (classes.NAME.served.backup).
func ValidClassName(name string) error {
	if !className.MatchString(name) {
		return fmt.Errorf("class %q: want lower-case letters, digits, - and _, starting with a letter", name)
	}
	if name == DefaultClass {
		return fmt.Errorf("class %q is the default route's: name the class something else", name)
	}
	return nil
}

// Validate says what is wrong with m: values outside the closed sets, a
// pattern that does not compile.
func (m Match) Validate() error {
	var errs []error
	for _, i := range m.Intent {
		if !slices.Contains(answer.Intents, i) {
			errs = append(errs, fmt.Errorf("intent %q is not one of %s", i, strings.Join(answer.Intents, ", ")))
		}
	}
	for _, u := range m.Urgency {
		if !slices.Contains(answer.Urgencies, u) {
			errs = append(errs, fmt.Errorf("urgency %q is not one of %s", u, strings.Join(answer.Urgencies, ", ")))
		}
	}
	for _, k := range m.Keywords {
		if strings.TrimSpace(k) == "" {
			errs = append(errs, errors.New("a keyword must not be empty"))
		}
	}
	if m.Pattern != "" {
		if _, err := regexp.Compile(m.Pattern); err != nil {
			errs = append(errs, fmt.Errorf("pattern: %w", err))
		}
	}
	return errors.Join(errs...)
}

// New returns the classifier of rules, tried in order. Every class must
// have a valid, distinct name and a valid match.
func New(rules []Rule) (*Classifier, error) {
	c := &Classifier{}
	var errs []error
	for _, r := range rules {
		if err := ValidClassName(r.Class); err != nil {
			errs = append(errs, err)
			continue
		}
		if slices.Contains(c.classes, r.Class) {
			errs = append(errs, fmt.Errorf("class %q is routed twice", r.Class))
			continue
		}
		if err := r.Match.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("class %s: %w", r.Class, err))
			continue
		}
		cr := compiled{Rule: r}
		if r.Match.Pattern != "" {
			cr.re = regexp.MustCompile(r.Match.Pattern) // Validate compiled it
		}
		for _, k := range r.Match.Keywords {
			cr.keywords = append(cr.keywords, strings.ToLower(k))
		}
		c.rules = append(c.rules, cr)
		c.classes = append(c.classes, r.Class)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return c, nil
}

// Classes lists the classes in rule order, the default class last.
func (c *Classifier) Classes() []string { return append(slices.Clip(c.classes), DefaultClass) }

// Classify is the class of e: the first rule whose match holds on e's text
// and the rules triage's reading of it; DefaultClass if none does. It never
// reads e's right answer.
func (c *Classifier) Classify(e emails.Email) string {
	return c.classify(e, triage.Rules(e))
}

// TruthClass is the class e's right answer would put it in: the rules
// matched with the right intent and urgency in place of the triage's
// guess (text, pattern, safety words and the class column read as they
// are). ok is false for an email without a right answer. It scores the
// classifier after a run; it never routes an email.
func (c *Classifier) TruthClass(e emails.Email) (class string, ok bool) {
	if e.Unscored {
		return "", false
	}
	return c.classify(e, e.Truth), true
}

func (c *Classifier) classify(e emails.Email, read answer.Answer) string {
	var text string
	for _, r := range c.rules {
		m := r.Match
		if len(m.Intent) > 0 && !slices.Contains(m.Intent, read.Intent) {
			continue
		}
		if len(m.Urgency) > 0 && !slices.Contains(m.Urgency, read.Urgency) {
			continue
		}
		if len(m.Class) > 0 && !slices.Contains(m.Class, e.Class) {
			continue
		}
		if m.Safety || len(r.keywords) > 0 {
			if text == "" {
				text = triage.Text(e)
			}
			if m.Safety && !triage.ContainsAny(text, triage.SafetyWords) {
				continue
			}
			if len(r.keywords) > 0 && !triage.ContainsAny(text, r.keywords) {
				continue
			}
		}
		if r.re != nil && !r.re.MatchString(e.Subject+"\n"+e.Body) {
			continue
		}
		return r.Class
	}
	return DefaultClass
}
