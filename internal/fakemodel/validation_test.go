package fakemodel

import (
	"testing"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/answer"
)

// TestValidationSet scores both readers on testdata/validation.jsonl: 90
// emails written after the reader, to the same rules. The reader was not
// tuned to them one by one; these bounds are the targets.
func TestValidationSet(t *testing.T) {
	es, err := emails.Load("../../testdata/validation.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name         string
		r            *reader
		lo, hi       float64
		urgencyShare float64
	}{
		{ModelMini, miniReader, 0.90, 1, 0},
		{ModelNano, nanoReader, 0.60, 0.80, 0.6},
	} {
		right, wrongEmails, urgencyWrong := 0, 0, 0
		var byField [4]int
		for _, e := range es {
			got := c.r.read(e.Text()).Answer
			bad := false
			for i, f := range answer.Fields {
				if got.Field(f) != e.Truth.Field(f) {
					byField[i]++
					bad = true
				}
			}
			if !bad {
				right++
				continue
			}
			wrongEmails++
			if got.Urgency != e.Truth.Urgency {
				urgencyWrong++
			}
			if testing.Verbose() {
				t.Logf("%s #%d: got %+v want %+v", c.name, e.ID, got, e.Truth)
			}
		}
		frac := float64(right) / float64(len(es))
		t.Logf("%s: %d/%d all-4-right (%.1f %%), misses by field %v, %d of %d wrong emails wrong on urgency",
			c.name, right, len(es), 100*frac, byField, urgencyWrong, wrongEmails)
		if frac < c.lo || frac > c.hi {
			t.Errorf("%s: all-4-right %.3f outside %.2f..%.2f", c.name, frac, c.lo, c.hi)
		}
		if wrongEmails > 0 && float64(urgencyWrong) < c.urgencyShare*float64(wrongEmails) {
			t.Errorf("%s: only %d of %d misses on urgency", c.name, urgencyWrong, wrongEmails)
		}
	}
}
