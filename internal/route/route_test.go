package route

import (
	"fmt"
	"strings"
	"testing"

	"github.com/drill-dev/drill/emails"
)

// TestFirstMatchWins: rules are tried in order; the default takes the rest.
func TestFirstMatchWins(t *testing.T) {
	c, err := New([]Rule{
		{Class: "safety", Match: Builtin["safety"]},
		{Class: "billing-error", Match: Builtin["billing-error"]},
		{Class: "tents", Match: Match{Keywords: []string{"TENT"}}},
		{Class: "vip", Match: Match{Class: []string{"vip"}}},
		{Class: "dr", Match: Match{Pattern: `DR-10\d{4}`}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		e    emails.Email
		want string
	}{
		{emails.Email{Subject: "Stove caught fire", Body: "charged twice too"}, "safety"},
		{emails.Email{Subject: "Charged twice", Body: "please refund one"}, "billing-error"},
		{emails.Email{Subject: "my tent", Body: "the Trailhead tent pole"}, "tents"},
		{emails.Email{Subject: "hello", Class: "vip"}, "vip"},
		{emails.Email{Subject: "order", Body: "about DR-104233"}, "dr"},
		{emails.Email{Subject: "hello", Body: "thanks"}, DefaultClass},
	} {
		if got := c.Classify(tc.e); got != tc.want {
			t.Errorf("%q: class %s, want %s", tc.e.Subject, got, tc.want)
		}
	}
	if got := strings.Join(c.Classes(), ","); got != "safety,billing-error,tents,vip,dr,default" {
		t.Errorf("classes %s", got)
	}
}

// TestTruthClassReadsTheRightAnswer: an email the keyword triage misreads
// lands in another class than its right answer's; a class by the triage's
// reading of money taken in error shows it (email 22: "charged anyway" for
// a cancelled order reads as a cancellation; email 71, "YOU CHARGED ME
// TWICE", as a refund of normal urgency).
func TestTruthClassReadsTheRightAnswer(t *testing.T) {
	c, err := New([]Rule{{Class: "safety", Match: Builtin["safety"]},
		{Class: "refund-high", Match: Match{Intent: []string{"refund"}, Urgency: []string{"high"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int{22, 71} {
		e, _ := emails.ByID(id)
		truth, ok := c.TruthClass(e)
		if got := c.Classify(e); got != DefaultClass || !ok || truth != "refund-high" {
			t.Errorf("email %d: class %s, truth class %s (%v)", id, got, truth, ok)
		}
	}
	wrong := 0
	for _, e := range emails.All() {
		if tc, _ := c.TruthClass(e); tc != c.Classify(e) {
			wrong++
		}
	}
	if wrong == 0 || wrong > 10 {
		t.Errorf("%d of 120 misclassified: want a few", wrong)
	}
	if _, ok := c.TruthClass(emails.Email{Unscored: true}); ok {
		t.Error("an email without a right answer has a truth class")
	}
}

// TestBuiltinBillingErrorCatchesEveryDoubleCharge: the built-in
// billing-error class, by the phrases of money taken in error in any case,
// holds every built-in email whose right answer is an urgent refund and
// no safety report (22, 71 "YOU CHARGED ME TWICE", 74), and no other; it
// is kept off the backup, as safety is.
func TestBuiltinBillingErrorCatchesEveryDoubleCharge(t *testing.T) {
	rules := []Rule{{Class: "safety", Match: Builtin["safety"]}, {Class: "billing-error", Match: Builtin["billing-error"]}}
	c, err := New(rules)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, e := range emails.All() {
		if c.Classify(e) != "billing-error" {
			continue
		}
		got = append(got, e.ID)
		if e.Truth.Intent != "refund" || e.Truth.Urgency != "high" {
			t.Errorf("email %d (%q) is no urgent refund", e.ID, e.Subject)
		}
	}
	if fmt.Sprint(got) != "[22 71 74]" {
		t.Errorf("billing-error holds %v, want [22 71 74]", got)
	}
	if !BuiltinNever("safety") || !BuiltinNever("billing-error") || BuiltinNever("returns") || BuiltinNever("order-status") {
		t.Error("the classes kept off the backup are safety and billing-error")
	}
}

// TestNewRejects: bad names, duplicates and bad matches are errors.
func TestNewRejects(t *testing.T) {
	for _, rules := range [][]Rule{
		{{Class: "Bad Name"}},
		{{Class: DefaultClass}},
		{{Class: "a"}, {Class: "a"}},
		{{Class: "a", Match: Match{Intent: []string{"complain"}}}},
		{{Class: "a", Match: Match{Urgency: []string{"urgent"}}}},
		{{Class: "a", Match: Match{Pattern: "("}}},
		{{Class: "a", Match: Match{Keywords: []string{" "}}}},
	} {
		if _, err := New(rules); err == nil {
			t.Errorf("%+v: no error", rules)
		}
	}
}

// TestBuiltinNamesAreEveryBuiltin: the ordered list names every built-in
// class once.
func TestBuiltinNamesAreEveryBuiltin(t *testing.T) {
	names := BuiltinNames()
	if len(names) != len(Builtin) || names[0] != "safety" {
		t.Fatalf("%v", names)
	}
	for _, n := range names {
		if _, ok := Builtin[n]; !ok {
			t.Errorf("%s is no built-in class", n)
		}
	}
}

// TestBillingErrorByMeaning: the billing-error rule reads how customers say
// money was taken in error, in words the built-in emails never use, and
// leaves alone emails that only talk about money or cancelling.
func TestBillingErrorByMeaning(t *testing.T) {
	c, err := New([]Rule{{Class: "billing-error", Match: Builtin["billing-error"]}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		subject, body string
		want          string
	}{
		{"Same amount taken twice", "my statement shows $159 taken out twice", "billing-error"},
		{"billed two times", "I was billed two times for my order", "billing-error"},
		{"Double payment", "the payment was debited double from my card", "billing-error"},
		{"card hit twice?", "looks like my card got hit twice, two identical transactions", "billing-error"},
		{"duplicate charge", "there is a duplicate charge on my account", "billing-error"},
		{"Money still gone", "You cancelled my order yourselves but the money is still gone from my account.", "billing-error"},
		{"Cancelled but charged", "I cancelled on Monday but the charge went through anyway.", "billing-error"},
		{"Where is my order", "I paid last week and nothing has arrived.", DefaultClass},
		{"Cancel please", "Please cancel order 123456.", DefaultClass},
		{"Two tents", "I bought two tents and want to return one.", DefaultClass},
		{"Double-wall tent", "Is the Summit 4 a double-wall tent? Does shipping cost extra?", DefaultClass},
	} {
		if got := c.Classify(emails.Email{Subject: tc.subject, Body: tc.body}); got != tc.want {
			t.Errorf("%q / %q: %s, want %s", tc.subject, tc.body, got, tc.want)
		}
	}
}
