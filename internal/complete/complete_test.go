package complete

import (
	"slices"
	"testing"

	"github.com/drill-dev/drill/inject"
)

// TestListOffersTheValuesNotGiven: after "a,", the list offers the rest,
// each after what was typed.
func TestListOffersTheValuesNotGiven(t *testing.T) {
	got := List([]string{"a", "b", "c"})("a,")
	if want := []string{"a,b", "a,c"}; !slices.Equal(got, want) {
		t.Errorf("List after a,: %v, want %v", got, want)
	}
	if got := List([]string{"a", "b"})(""); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("List of nothing typed: %v", got)
	}
}

// TestFaultKeysAreTheInjectorsKeys: every modifier and every kind's
// parameters, once each, as KEY=.
func TestFaultKeysAreTheInjectorsKeys(t *testing.T) {
	got := FaultKeys("")
	for _, k := range inject.ModifierKeys() {
		if !slices.Contains(got, k+"=") {
			t.Errorf("modifier %s= not offered: %v", k, got)
		}
	}
	seen := map[string]bool{}
	for _, k := range got {
		if seen[k] {
			t.Errorf("%s offered twice", k)
		}
		seen[k] = true
	}
}

// TestEveryValueListIsTheCheckersList: the clock values are the ones
// given, and the outage values are the engine's kinds.
func TestEveryValueListIsTheCheckersList(t *testing.T) {
	v := FlagValues([]string{"real", "virtual"})
	if got := v["clock"](""); !slices.Equal(got, []string{"real", "virtual"}) {
		t.Errorf("clock: %v", got)
	}
	if got := v["outage"](""); len(got) == 0 {
		t.Error("outage offers nothing")
	}
}
