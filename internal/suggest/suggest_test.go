package suggest

import "testing"

func TestNearest(t *testing.T) {
	for _, tc := range []struct {
		word       string
		candidates []string
		want       string
		ok         bool
	}{
		{"outgae", []string{"outage", "outages", "policy"}, "outage", true},
		{"brekaer", []string{"primary-only", "backup-only", "fallback", "breaker", "fail-fast"}, "breaker", true},
		{"served.eror", []string{"served.error", "served.backup", "answered"}, "served.error", true},
		{"BREAKER", []string{"fallback", "breaker"}, "breaker", true},
		{"yolo", []string{"primary-only", "fallback", "breaker", "fail-fast"}, "", false},
		{"breaker", []string{"breaker"}, "", false}, // the word itself is no suggestion
		{"x", nil, "", false},
		// A whole part of one name between dashes: the triage preset's name
		// given where the chat presets are meant.
		{"breaker", []string{"agent-defaults", "agent-breaker", "agent-all-checks"}, "agent-breaker", true},
		{"agent", []string{"agent-defaults", "agent-breaker"}, "", false}, // a part of two names says nothing
	} {
		got, ok := Nearest(tc.word, tc.candidates)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Nearest(%q) = %q, %v; want %q, %v", tc.word, got, ok, tc.want, tc.ok)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"outgae", "outage", 1}, {"kitten", "sitting", 3}, {"ab", "ba", 1}} {
		if got := distance(tc.a, tc.b); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	if got := DidYouMean("outgae", "--", []string{"outage"}); got != "; did you mean --outage?" {
		t.Errorf("DidYouMean = %q", got)
	}
	if got := DidYouMean("zzzzzz", "--", []string{"outage"}); got != "" {
		t.Errorf("DidYouMean with nothing near = %q, want empty", got)
	}
}

// TestNearestExtension: a name cut short at a separator means the one
// candidate it begins ("calls_to_broken" → "calls_to_broken_outage"), not
// one of several.
func TestNearestExtension(t *testing.T) {
	figures := []string{"calls_to_broken_outage", "baseline.calls_to_broken_outage", "breaker_first_open_s", "served.error", "served.backup"}
	if got, ok := Nearest("calls_to_broken", figures); !ok || got != "calls_to_broken_outage" {
		t.Errorf("Nearest(calls_to_broken) = %q, %v", got, ok)
	}
	if got, ok := Nearest("servd", []string{"served.error", "served.backup", "seed"}); ok && got != "seed" {
		t.Errorf("a prefix of several candidates suggested %q", got)
	}
	if _, ok := Nearest("se", []string{"served.error"}); ok {
		t.Error("a two-letter prefix suggested a name")
	}
}
