package drillfile

import (
	"fmt"
	"strings"
	"testing"
)

// TestEveryDecodeProblemReported: unknown keys at every depth and every
// value of the wrong type (in the workload mapping and a route's inline
// policy too) are all reported, each with its line, in file order (the strict
// decoder alone stopped at the first).
func TestEveryDecodeProblemReported(t *testing.T) {
	src := `workload:
  emails: lots
  raet: 3
  rate: fast
models:
  primary:
    modle: gpt-5.4-mini
policies:
  - preset: breaker
    colour: red
    primary_timeout: 2x
routes:
  - class: urgent
    policy: {breakr: 1, trip_failures: many}
tipo: 1
`
	_, err := Parse("d.yaml", []byte(src))
	if err == nil {
		t.Fatal("parsed")
	}
	msg := err.Error()
	want := []string{`d.yaml:2:11: emails: want a whole number, got "lots"`, `d.yaml:3:3: unknown field "raet"`,
		`d.yaml:4:9: rate: want a number, got "fast"`, `d.yaml:7:5: unknown field "modle"`, `d.yaml:10:5: unknown field "colour"`,
		`d.yaml:11:22: primary_timeout: bad duration "2x"`, `d.yaml:14:14: unknown field "breakr"`,
		`d.yaml:14:40: trip_failures: want a whole number, got "many"`, `d.yaml:15:1: unknown field "tipo"`}
	last := -1
	for _, w := range want {
		i := strings.Index(msg, w)
		if i < 0 {
			t.Errorf("the error does not report %q:\n%s", w, msg)
			continue
		}
		if i < last {
			t.Errorf("%q out of file order:\n%s", w, msg)
		}
		last = i
	}
}

// TestManyKeysRefusedBeforeParsing: a drill file with 100,000 keys is
// refused by the scan before the parser (whose cost grows with the
// square of a mapping's keys) sees it, naming the line past the limit.
func TestManyKeysRefusedBeforeParsing(t *testing.T) {
	var b strings.Builder
	b.WriteString("workload:\n  emails: 10\n")
	for i := range 100_000 {
		fmt.Fprintf(&b, "k%d: 1\n", i)
	}
	_, err := Parse("keys.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("keys.yaml:%d:1: more than %d keys", MaxKeys+1, MaxKeys)) {
		t.Fatalf("Parse = %v, want refused at line %d", err, MaxKeys+1)
	}
}

// TestErrorsCapped: past MaxErrors problems, the rest are counted.
func TestErrorsCapped(t *testing.T) {
	var b strings.Builder
	for i := range MaxErrors + 5 {
		fmt.Fprintf(&b, "bad%d: 1\n", i)
	}
	_, err := Parse("d.yaml", []byte(b.String()))
	if err == nil || strings.Count(err.Error(), "unknown field") != MaxErrors || !strings.Contains(err.Error(), "and 5 more problems") {
		t.Fatalf("Parse = %v", err)
	}
}
