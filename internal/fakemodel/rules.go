package fakemodel

import (
	"github.com/drill-dev/drill/internal/answer"
)

// Rule names one reading behaviour of a built-in profile: a way it reads ANY
// email with a given feature differently from the shop's rules read in
// full. A reading notes, for each field, the rule that decided it when one
// did; a wrong field with no rule noted is a gap both profiles share.
type Rule string

// mini's reading behaviours (nano has them too): what a smaller-but-good
// model misreads.
const (
	// RuleImpliedDeadline: the customer gives a date and a departure or
	// event ("we fly out on the 14th and the bag hasn't shipped") but never
	// says anything of needing it by then, nor of hurry; the profile does
	// not infer the deadline and answers normal (or low).
	RuleImpliedDeadline Rule = "implied deadline not inferred"
	// RuleNickname: the product is named only by a nickname that shares no
	// word with its catalogue name and is not among the rules' examples
	// ("puffer", "rucksack", "th2"); the profile does not recognise it.
	RuleNickname Rule = "product nickname not known"
	// RuleWrappedNumber: the order number is broken over a line break
	// ("DR-104" at a line's end, "233" on the next); the profile does not
	// join the pieces.
	RuleWrappedNumber Rule = "order number broken over a line"
)

// nano's further reading behaviours: the cheap model's crude rules.
const (
	// RuleToneAsUrgency: "URGENT", "ASAP", "!!", shouted words or anger
	// made the answer high.
	RuleToneAsUrgency Rule = "tone read as urgency"
	// RuleDateWord: a date word ("tomorrow", "by Friday", "this weekend")
	// made the answer high, whatever its tense or what it is about.
	RuleDateWord Rule = "date word read as a deadline"
	// RuleAlarmWord: an alarming word ("gas", "fire", "hurt") made the
	// answer high, whatever its sense.
	RuleAlarmWord Rule = "alarming word read as danger"
	// RuleMoneyWords: "charged twice" and the like made the answer high.
	RuleMoneyWords Rule = "money words read as an error"
	// RuleObviousOnly: no obvious word made the answer high, so a stated
	// deadline or a safety risk said in ordinary words (a swollen battery,
	// a cut harness) went unnoticed.
	RuleObviousOnly Rule = "only obvious urgency words read"
	// RuleNoHurry: "no hurry" or "take your time" was not read.
	RuleNoHurry Rule = "\"no hurry\" not read"
	// RuleRequestWord: a request word was read without its negation or
	// tense ("I don't want to cancel", "I cancelled").
	RuleRequestWord Rule = "request word read without negation or tense"
	// RuleFirstProduct: the first product named was taken, not the one the
	// request is about.
	RuleFirstProduct Rule = "first product named taken"
)

// RuleOther is reported for a wrong field no profile rule decided: a gap
// in the reading of the shop's rules that both profiles share.
const RuleOther Rule = "outside the profile's rules"

// Rules lists every profile rule, mini's first, then nano's, then RuleOther.
func Rules() []Rule {
	return []Rule{RuleImpliedDeadline, RuleNickname, RuleWrappedNumber, RuleToneAsUrgency, RuleDateWord, RuleAlarmWord,
		RuleMoneyWords, RuleObviousOnly, RuleNoHurry, RuleRequestWord, RuleFirstProduct, RuleOther}
}

// Reading is a built-in profile's triage of one email with, for each field
// a profile rule decided, that rule (indexed like answer.Fields).
type Reading struct {
	Answer answer.Answer
	Rules  [len(answer.Fields)]Rule
}

// Because returns the rule that decided field (one of answer.Fields), or
// "" when none did.
func (r Reading) Because(field string) Rule {
	for i, f := range answer.Fields {
		if f == field {
			return r.Rules[i]
		}
	}
	return ""
}

// Read triages msg (a user message's text) as the built-in model does and
// says which profile rule decided each field. ok is false for a model that
// is not built in.
func Read(model, msg string) (Reading, bool) {
	p, ok := profiles[model]
	if !ok {
		return Reading{}, false
	}
	return p.Reader.Reading(msg), true
}

// fieldIndex is each field's index in answer.Fields.
var fieldIndex = func() map[string]int {
	m := map[string]int{}
	for i, f := range answer.Fields {
		m[f] = i
	}
	return m
}()

// note records that rule decided field.
func (r *Reading) note(field string, rule Rule) { r.Rules[fieldIndex[field]] = rule }

// Explainer says why the built-in profiles answer as they do: it satisfies
// drill eval's explainer (package eval), which tallies misses by rule.
type Explainer struct{}

// Explains reports whether model is a built-in profile.
func (Explainer) Explains(model string) bool {
	_, ok := profiles[model]
	return ok
}

// Explain returns model's answer to msg and, for every field, the rule
// that decided it, RuleOther for a field no profile rule decided.
func (Explainer) Explain(model, msg string) (answer.Answer, map[string]string) {
	rd, ok := Read(model, msg)
	if !ok {
		return answer.Answer{}, nil
	}
	rules := make(map[string]string, len(answer.Fields))
	for i, f := range answer.Fields {
		rule := rd.Rules[i]
		if rule == "" {
			rule = RuleOther
		}
		rules[f] = string(rule)
	}
	return rd.Answer, rules
}
