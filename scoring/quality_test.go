package scoring

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/drill-dev/drill/emails"
)

func TestCompare(t *testing.T) {
	truth := emails.Answer{Intent: "return", OrderNumber: "DR-131422", Product: "Cloudrest Sleeping Pad", Urgency: "normal"}
	for _, c := range []struct {
		name string
		got  emails.Answer
		want Match
	}{
		{"exact", truth, Match{true, true, true, true}},
		{"normalised", ans(" Return", "dr 131-422", "cloudrest sleeping pad", "NORMAL "), Match{true, true, true, true}},
		{"bare digits", ans("return", "131422", "Cloudrest Sleeping Pad", "normal"), Match{true, true, true, true}},
		{"urgency wrong", ans("return", "DR-131422", "Cloudrest Sleeping Pad", "high"), Match{true, true, true, false}},
		{"empty order", ans("return", "", "Cloudrest Sleeping Pad", "normal"), Match{true, false, true, true}},
		{"all wrong", ans("refund", "DR-000001", "Hydro 1L Bottle", "low"), Match{}},
		{"zero", emails.Answer{}, Match{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Compare(c.got, truth)
			if got != c.want {
				t.Errorf("Compare = %v, want %v", got, c.want)
			}
			if got.All() != (c.want == Match{true, true, true, true}) {
				t.Errorf("All() = %v", got.All())
			}
		})
	}
	empty := emails.Answer{Intent: "cancel", Urgency: "normal"}
	if !Compare(empty, empty).All() {
		t.Error("empty order number and product should match empty")
	}
}

func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{
		// The chapter's figures: 97 % (92–99 %) and 74 % (66–81 %) of 120.
		{116, 120, 0.917, 0.987},
		{89, 120, 0.656, 0.811},
		{0, 10, 0, 0.278},
		{10, 10, 0.722, 1},
		{0, 0, 0, 1},
		{5, 10, 0.237, 0.763},
	} {
		lo, hi := Wilson(c.k, c.n)
		if math.Abs(lo-c.lo) > 0.001 || math.Abs(hi-c.hi) > 0.001 {
			t.Errorf("Wilson(%d, %d) = (%.4f, %.4f), want (%.3f, %.3f)", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

func TestQuality(t *testing.T) {
	q := Quality{Model: "m"}
	truth := emails.Answer{Intent: "return", OrderNumber: "DR-131422", Product: "Cloudrest Sleeping Pad", Urgency: "normal"}
	q.Add(1, truth, truth, false)
	q.Add(2, truth, truth, false)
	wrongUrgency := truth
	wrongUrgency.Urgency = "high"
	q.Add(3, wrongUrgency, truth, false)
	q.Add(4, truth, truth, true) // invalid: wrong on every field whatever it says
	r := q.Result()
	if r.Emails != 4 || r.All4Right != 0.5 || r.Invalid != 1 {
		t.Errorf("result %+v", r)
	}
	wantMisses := map[string]int{"intent": 1, "order_number": 1, "product": 1, "urgency": 2}
	if !reflect.DeepEqual(r.MissesByField, wantMisses) {
		t.Errorf("misses by field %v, want %v", r.MissesByField, wantMisses)
	}
	if r.Fields["urgency"] != 0.5 || r.Fields["intent"] != 0.75 {
		t.Errorf("fields %v", r.Fields)
	}
	ms := q.Misses()
	if len(ms) != 2 || ms[0].Email != 3 || !reflect.DeepEqual(ms[0].Wrong, []string{"urgency"}) || !ms[1].Invalid || len(ms[1].Wrong) != 4 {
		t.Errorf("misses %+v", ms)
	}

	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]json.RawMessage
	json.Unmarshal(b, &keys)
	for _, k := range []string{"model", "emails", "all4_right", "all4_right_ci95", "fields", "misses_by_field", "invalid"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, b)
		}
	}
	if len(keys) != 7 {
		t.Errorf("JSON has %d keys, want 7: %s", len(keys), b)
	}
}

func TestQualityEmpty(t *testing.T) {
	var q Quality
	r := q.Result()
	if r.Emails != 0 || r.All4Right != 0 || r.All4RightCI95 != [2]float64{0, 1} {
		t.Errorf("empty result %+v", r)
	}
}

func ans(intent, order, product, urgency string) emails.Answer {
	return emails.Answer{Intent: intent, OrderNumber: order, Product: product, Urgency: urgency}
}
