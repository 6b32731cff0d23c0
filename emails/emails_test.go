package emails

import (
	"strings"
	"testing"
)

func TestDataSet(t *testing.T) {
	all := All()
	if len(all) != 120 {
		t.Fatalf("got %d emails, want 120", len(all))
	}
	counts := map[string]int{}
	for i, e := range all {
		if e.ID != i+1 {
			t.Errorf("email %d has ID %d", i+1, e.ID)
		}
		if e.Body == "" || e.Subject == "" || e.From == "" {
			t.Errorf("email %d has an empty field", e.ID)
		}
		if err := e.Truth.Valid(); err != nil {
			t.Errorf("email %d: truth invalid: %v", e.ID, err)
		}
		if Normalize(e.Truth) != e.Truth {
			t.Errorf("email %d: truth not in canonical form: %+v", e.ID, e.Truth)
		}
		counts[e.Truth.Urgency]++
	}
	for _, u := range Urgencies {
		if counts[u] < 15 {
			t.Errorf("only %d emails with urgency %s", counts[u], u)
		}
	}
}

func TestMarcus(t *testing.T) {
	m, ok := ByID(35)
	if !ok {
		t.Fatal("no email 35")
	}
	if !strings.Contains(m.Body, "URGENT") || !strings.Contains(strings.ToLower(m.Body), "sleeping pad") {
		t.Errorf("email 35 is not Marcus: %q", m.Body)
	}
	want := Answer{Intent: "return", OrderNumber: "DR-131422", Product: "Cloudrest Sleeping Pad", Urgency: "normal"}
	if m.Truth != want {
		t.Errorf("Marcus truth = %+v, want %+v", m.Truth, want)
	}
	if _, ok := ByID(0); ok {
		t.Error("ByID(0) found an email")
	}
	if _, ok := ByID(121); ok {
		t.Error("ByID(121) found an email")
	}
}

func TestAllIsACopy(t *testing.T) {
	a := All()
	a[0].Body = "changed"
	if All()[0].Body == "changed" {
		t.Error("All shares its backing array")
	}
}

func TestNormalizeOrderNumber(t *testing.T) {
	for in, want := range map[string]string{
		"DR-123456": "DR-123456", "dr 123-456": "DR-123456", "#123456": "DR-123456",
		"123456": "DR-123456", " DR123456 ": "DR-123456", "": "", "12345": "12345", "abc": "ABC",
	} {
		if got := NormalizeOrderNumber(in); got != want {
			t.Errorf("NormalizeOrderNumber(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRules(t *testing.T) {
	r := Rules()
	for _, s := range []string{"URGENT", "deadline", "safety", "low", "normal", "high"} {
		if !strings.Contains(r, s) {
			t.Errorf("rules do not mention %q", s)
		}
	}
}

// TestValidOrderNumberForm checks answer validation wants the whole
// DR-123456 form, not just its prefix.
func TestValidOrderNumberForm(t *testing.T) {
	base := Answer{Intent: Intents[0], Urgency: Urgencies[0]}
	for _, c := range []struct {
		order string
		ok    bool
	}{{"DR-123456", true}, {"dr 123-456", true}, {"#123456", true}, {"", true},
		{"DR-banana", false}, {"DR-12345", false}, {"DR-1234567", false}, {"banana", false}} {
		a := base
		a.OrderNumber = c.order
		if err := a.Valid(); (err == nil) != c.ok {
			t.Errorf("order number %q: Valid() = %v, want ok %v", c.order, err, c.ok)
		}
	}
}

func TestCycle(t *testing.T) {
	for _, n := range []int{1, 35, 120, 121, 155, 240, 241, 100000} {
		e, ok := Nth(n)
		if !ok {
			t.Fatalf("Nth(%d) found nothing", n)
		}
		src, _ := ByID((n-1)%120 + 1)
		if e.ID != n || e.Body != src.Body || e.Truth != src.Truth {
			t.Errorf("Nth(%d) = id %d body of %q; want id %d and email %d's body and truth", n, e.ID, e.Subject, n, src.ID)
		}
	}
	if _, ok := Nth(0); ok {
		t.Error("Nth(0) found an email")
	}
	set := []Email{{ID: 7, Body: "a"}, {ID: 9, Body: "b"}}
	if e, _ := Cycle(set, 3); e.ID != 3 || e.Body != "a" {
		t.Errorf("Cycle(set, 3) = %+v, want id 3 body a", e)
	}
	if e, _ := Cycle(set, 4); e.ID != 4 || e.Body != "b" {
		t.Errorf("Cycle(set, 4) = %+v, want id 4 body b", e)
	}
	if _, ok := Cycle(nil, 1); ok {
		t.Error("Cycle over an empty set found an email")
	}
}
