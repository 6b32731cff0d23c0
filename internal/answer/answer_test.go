package answer

import "testing"

func TestNormalizeOrderNumber(t *testing.T) {
	for in, want := range map[string]string{
		"DR-123456": "DR-123456", "dr 123-456": "DR-123456", "#123456": "DR-123456",
		"123456": "DR-123456", " DR123456 ": "DR-123456", "": "", "12345": "12345", "abc": "ABC",
		"DR-000000": "DR-000000", "DR-12345x": "DR-12345X", "DR-1234567": "DR-1234567", "Dr-123456": "DR-123456",
	} {
		if got := NormalizeOrderNumber(in); got != want {
			t.Errorf("NormalizeOrderNumber(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValid(t *testing.T) {
	ok := Answer{Intent: "return", OrderNumber: "dr 123-456", Product: "cloudrest sleeping pad", Urgency: "Normal"}
	if err := ok.Valid(); err != nil {
		t.Errorf("Valid(%+v) = %v", ok, err)
	}
	if err := (Answer{Intent: "cancel", Urgency: "low"}).Valid(); err != nil {
		t.Errorf("empty order and product: %v", err)
	}
	for name, a := range map[string]Answer{
		"intent":          {Intent: "chat", Urgency: "low"},
		"product":         {Intent: "return", Product: "Hammock", Urgency: "low"},
		"urgency":         {Intent: "return", Urgency: "critical"},
		"DR-banana":       {Intent: "return", OrderNumber: "DR-banana", Urgency: "low"},
		"five digits":     {Intent: "return", OrderNumber: "DR-12345", Urgency: "low"},
		"seven digits":    {Intent: "return", OrderNumber: "DR-1234567", Urgency: "low"},
		"digits and junk": {Intent: "return", OrderNumber: "DR-123456x", Urgency: "low"},
	} {
		if err := a.Valid(); err == nil {
			t.Errorf("%s: Valid(%+v) = nil, want an error", name, a)
		}
	}
}

func TestSetField(t *testing.T) {
	var a Answer
	for _, f := range Fields {
		if !IsField(f) || !a.SetField(f, f) || a.Field(f) != f {
			t.Errorf("field %s does not round-trip", f)
		}
	}
	if IsField("why") || a.SetField("why", "x") || a.Field("why") != "" {
		t.Error("an unknown field was accepted")
	}
}
