package fakemodel

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/answer"
)

// carefulReader reads like mini with every one of mini's reading
// behaviours switched off: the shop's rules read in full.
func carefulReader() *reader {
	r := newReader(func(string, string) bool { return true })
	r.urgency = miniUrgency
	r.impliedDeadlines = true
	r.joinsWrapped = true
	return r
}

// TestMiniErrorProfile: each of mini's reading behaviours, on emails
// written for this test from the rules' wording: with the feature, mini
// gets the field wrong and names the rule; without it (a stated deadline,
// the catalogue name, the number on one line) it gets it right.
func TestMiniErrorProfile(t *testing.T) {
	for _, c := range []struct {
		name, with, without string
		field, wrong, right string
		rule                Rule
	}{
		{"implied deadline",
			"Subject: tent\n\nWe fly out to Oslo on the 14th and the Summit 4 from order DR-555111 still hasn't shipped. Can you check?",
			"Subject: tent\n\nWe fly out to Oslo on the 14th and need the Summit 4 from order DR-555111 before then. Has it shipped?",
			"urgency", "normal", "high", RuleImpliedDeadline},
		{"implied deadline, question before buying",
			"Subject: stove\n\nDoes the Blaze stove work with butane? Our trip starts on Saturday.",
			"Subject: stove\n\nDoes the Blaze stove work with butane? I need to know before our trip starts on Saturday.",
			"urgency", "low", "high", RuleImpliedDeadline},
		{"nickname",
			"Subject: return\n\nI'd like to return the puffer I bought, order DR-555222. It is too warm.",
			"Subject: return\n\nI'd like to return the down jacket I bought, order DR-555222. It is too warm.",
			"product", "", "Firn Down Jacket", RuleNickname},
		{"order number broken over a line",
			"Subject: cancel\n\nPlease cancel my order DR-555\n333 before it ships, I ordered twice by mistake.",
			"Subject: cancel\n\nPlease cancel my order DR-555 333 before it ships, I ordered twice by mistake.",
			"order_number", "", "DR-555333", RuleWrappedNumber},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := miniReader.read(c.with)
			if v := got.Answer.Field(c.field); v != c.wrong || got.Because(c.field) != c.rule {
				t.Errorf("with the feature: %s %q because %q, want %q because %q", c.field, v, got.Because(c.field), c.wrong, c.rule)
			}
			if v := carefulReader().read(c.with).Answer.Field(c.field); v != c.right {
				t.Errorf("the rules read in full: %s %q, want %q", c.field, v, c.right)
			}
			without := miniReader.read(c.without)
			if v := without.Answer.Field(c.field); v != c.right || without.Because(c.field) != "" {
				t.Errorf("without the feature: %s %q because %q, want %q and no rule", c.field, v, without.Because(c.field), c.right)
			}
			// nano shares mini's blind spots.
			if v := nanoReader.read(c.with).Answer.Field(c.field); v == c.right {
				t.Errorf("nano reads the %s right (%q) where mini cannot", c.field, v)
			}
		})
	}
}

// sets are the emails the readers are measured on: the 120 and the
// validation set.
func sets(t *testing.T) map[string][]emails.Email {
	t.Helper()
	val, err := emails.Load("../../testdata/validation.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return map[string][]emails.Email{"the 120": emails.All(), "validation": val}
}

// TestRulesAreCausal: wherever a reading notes one of mini's rules on a
// field, the rules read in full answer that field otherwise; and every
// field mini gets wrong is either noted or a gap the careful reading
// shares. So drill eval's misses by rule say what caused each miss.
func TestRulesAreCausal(t *testing.T) {
	careful := carefulReader()
	miniRules := map[Rule]bool{RuleImpliedDeadline: true, RuleNickname: true, RuleWrappedNumber: true}
	for name, es := range sets(t) {
		for _, e := range es {
			for _, r := range []*reader{miniReader, nanoReader} {
				got, full := r.read(e.Text()), careful.read(e.Text())
				for i, f := range answer.Fields {
					rule := got.Rules[i]
					if miniRules[rule] && got.Answer.Field(f) == full.Answer.Field(f) {
						t.Errorf("%s #%d: %s noted %q on %s, but the full reading answers the same %q", name, e.ID, r.name(), rule, f, got.Answer.Field(f))
					}
					if r == miniReader && rule == "" && got.Answer.Field(f) != full.Answer.Field(f) {
						t.Errorf("%s #%d: mini's %s %q differs from the full reading's %q with no rule noted", name, e.ID, f, got.Answer.Field(f), full.Answer.Field(f))
					}
				}
			}
		}
	}
}

func (r *reader) name() string {
	if r.crude {
		return ModelNano
	}
	return ModelMini
}

// TestReaderNamesNoEmail: the reader's source names no email of the data
// set or the validation set: no order number, sender or subject line. Its
// rules come from the shop's rules and ordinary English.
func TestReaderNamesNoEmail(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	text := strings.ToLower(src.String())
	sixDigits := regexp.MustCompile(`\d{6}`)
	for name, es := range sets(t) {
		for _, e := range es {
			if n := strings.TrimPrefix(e.Truth.OrderNumber, "DR-"); n != "" && strings.Contains(text, n) {
				t.Errorf("%s #%d: the source has its order number %s", name, e.ID, n)
			}
			for _, n := range sixDigits.FindAllString(e.Body, -1) {
				if strings.Contains(text, n) {
					t.Errorf("%s #%d: the source has the number %s from its body", name, e.ID, n)
				}
			}
			// A sender's name ("priya.raman"), not a plain word some
			// senders use ("furious@").
			if local, _, _ := strings.Cut(strings.ToLower(e.From), "@"); strings.ContainsAny(local, "._0123456789") && strings.Contains(text, local) {
				t.Errorf("%s #%d: the source names its sender %q", name, e.ID, local)
			}
			if s := strings.ToLower(e.Subject); len(s) >= 14 && strings.Contains(text, s) {
				t.Errorf("%s #%d: the source has its subject %q", name, e.ID, e.Subject)
			}
		}
	}
}
