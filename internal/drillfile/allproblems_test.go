package drillfile

import (
	"strings"
	"testing"
)

// TestEveryProblemAtOnce: a value that does not decode no longer hides the
// problems behind it: each is reported at its line, values and figures
// with the nearest valid one.
func TestEveryProblemAtOnce(t *testing.T) {
	src := `workload:
  emails: lots
  rate: 2
outages:
  - kind: hnag
    from: soon
    to: 40s
policies:
  - preset: breakr
hypotheses:
  - calls_to_broken <= 3
`
	_, err := Parse("d.yaml", []byte(src))
	if err == nil {
		t.Fatal("a drill file with five problems parsed")
	}
	msg := err.Error()
	for _, want := range []string{
		`d.yaml:2:11: emails: want a whole number, got "lots"`,
		`d.yaml:5:11: unknown fault kind "hnag"; did you mean hang?`,
		`d.yaml:6:11: from: bad duration "soon"`,
		`d.yaml:9:13: unknown policy preset "breakr"; did you mean breaker?`,
		`d.yaml:11:5: hypothesis: "calls_to_broken <= 3": unknown figure "calls_to_broken"; did you mean "calls_to_broken_outage"?`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the errors lack %q:\n%s", want, msg)
		}
	}
	if n := strings.Count(msg, "\n") + 1; n != 5 {
		t.Errorf("%d problems reported, want 5:\n%s", n, msg)
	}
	if strings.Contains(msg, "breaker_first_open_s") {
		t.Errorf("an unknown figure with a near one lists every figure:\n%s", msg)
	}
}
