package scoring

import (
	"math"

	"github.com/drill-dev/drill/emails"
)

// FieldNames names the four answer fields in their fixed order:
// intent, order_number, product, urgency.
var FieldNames = emails.Fields

// Match is the field-by-field comparison of an answer with the truth, in the
// order of FieldNames: Match[i] is true when field i is right.
type Match [4]bool

// All reports whether all four fields are right.
func (m Match) All() bool { return m[0] && m[1] && m[2] && m[3] }

// Compare compares got with truth field by field after normalising both
// (emails.Normalize: case, spacing, order-number spelling, catalogue
// spelling), so "dr 123-456" matches "DR-123456".
func Compare(got, truth emails.Answer) Match {
	g, t := emails.Normalize(got), emails.Normalize(truth)
	var m Match
	for i, f := range FieldNames {
		m[i] = g.Field(f) == t.Field(f)
	}
	return m
}

// z95 is the standard normal quantile for a two-sided 95 % interval.
const z95 = 1.959963984540054

// Wilson returns the Wilson score 95 % interval for successes out of n. For
// n = 0 it returns (0, 1): nothing is known.
func Wilson(successes, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	successes = max(0, min(successes, n))
	p := float64(successes) / float64(n)
	nf := float64(n)
	z2 := z95 * z95
	den := 1 + z2/nf
	center := (p + z2/(2*nf)) / den
	half := z95 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	return math.Max(0, center-half), math.Min(1, center+half)
}

// Miss is one email answered wrong: which fields were wrong, or that the
// answer was invalid (malformed, outside the closed sets, or an error).
type Miss struct {
	Email   int           `json:"email"`
	Got     emails.Answer `json:"got"`
	Truth   emails.Answer `json:"truth"`
	Wrong   []string      `json:"wrong"`
	Invalid bool          `json:"invalid"`
}

// Quality accumulates one model's answers to a set of emails. The zero value
// is ready to use (set Model to name it). It is not safe for concurrent use.
type Quality struct {
	Model string

	n, all4 int
	right   [4]int
	invalid int
	misses  []Miss
}

// Add scores one email's answer against its truth. An invalid answer counts
// as wrong on every field.
func (q *Quality) Add(id int, got, truth emails.Answer, invalid bool) {
	q.n++
	var m Match
	if !invalid {
		m = Compare(got, truth)
	} else {
		q.invalid++
		got = emails.Answer{}
	}
	var wrong []string
	for i, ok := range m {
		if ok {
			q.right[i]++
		} else {
			wrong = append(wrong, FieldNames[i])
		}
	}
	if m.All() {
		q.all4++
		return
	}
	q.misses = append(q.misses, Miss{Email: id, Got: got, Truth: truth, Wrong: wrong, Invalid: invalid})
}

// N is the number of emails scored.
func (q *Quality) N() int { return q.n }

// All4 is the number of emails with all four fields right.
func (q *Quality) All4() int { return q.all4 }

// Misses lists the emails answered wrong, in the order they were added.
func (q *Quality) Misses() []Miss { return append([]Miss(nil), q.misses...) }

// QualityResult is one model's quality, the object `drill eval --json` prints
// for each model. Fractions are in 0..1, rounded to four decimals.
type QualityResult struct {
	Model         string             `json:"model"`
	Emails        int                `json:"emails"`
	All4Right     float64            `json:"all4_right"`
	All4RightCI95 [2]float64         `json:"all4_right_ci95"`
	Fields        map[string]float64 `json:"fields"`
	MissesByField map[string]int     `json:"misses_by_field"`
	Invalid       int                `json:"invalid"`
}

// Result returns the accumulated figures.
func (q *Quality) Result() QualityResult {
	r := QualityResult{
		Model:         q.Model,
		Emails:        q.n,
		Fields:        make(map[string]float64, 4),
		MissesByField: make(map[string]int, 4),
		Invalid:       q.invalid,
	}
	lo, hi := Wilson(q.all4, q.n)
	r.All4RightCI95 = [2]float64{round(lo, 4), round(hi, 4)}
	if q.n > 0 {
		r.All4Right = round(float64(q.all4)/float64(q.n), 4)
	}
	for i, f := range FieldNames {
		if q.n > 0 {
			r.Fields[f] = round(float64(q.right[i])/float64(q.n), 4)
		}
		r.MissesByField[f] = q.n - q.right[i]
	}
	return r
}
