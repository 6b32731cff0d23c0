// Package emails holds drill's workload: 120 made-up support emails to an
// outdoor-gear shop, each with its known right answer, and the shop's written
// triage rules. Both are embedded in the binary.
//
// The emails keep a fixed order (IDs 1..120); the workload sends them in that
// order, two a second, so email 35 — Marcus, who writes "URGENT" about
// returning a sleeping pad but has no deadline and no safety risk — is sent at
// 17.0 s. The order is arranged so that a drill's quality comes out as the
// lab measured it: README.md beside this file says what was arranged and
// why, and NthOriginalOrder keeps journals recorded before it readable.
//
// Answer and the closed sets live in package answer, which holds no data;
// this package imports nothing else from drill.
package emails

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/drill-dev/drill/internal/answer"
)

//go:embed emails.jsonl
var emailsJSONL []byte

//go:embed rules.md
var rulesText string

// Answer is answer.Answer. The alias and the forwarding names below keep
// existing callers compiling while branches merge; new code should use
// package answer directly.
type Answer = answer.Answer

// Email is one support email with its known right answer.
type Email struct {
	ID      int           `json:"id"` // 1-based position in the data set
	From    string        `json:"from"`
	Subject string        `json:"subject"`
	Body    string        `json:"body"`
	Truth   answer.Answer `json:"truth"`
	// Unscored is set for an email from a team's file that came without a
	// truth: its answers cannot be scored. The built-in emails all have one.
	Unscored bool `json:"unscored,omitempty"`
	// Class is the email's class from a team's file (its class column),
	// for routes that match on it; "" when the file has none.
	Class string `json:"class,omitempty"`
}

// Intents is answer.Intents.
var Intents = answer.Intents

// Products is answer.Products.
var Products = answer.Products

// Urgencies is answer.Urgencies.
var Urgencies = answer.Urgencies

// Fields is answer.Fields.
var Fields = answer.Fields

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

// NormalizeOrderNumber is answer.NormalizeOrderNumber.
func NormalizeOrderNumber(s string) string { return answer.NormalizeOrderNumber(s) }

// Normalize is answer.Normalize.
func Normalize(a Answer) Answer { return answer.Normalize(a) }
