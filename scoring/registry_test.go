package scoring

import (
	"slices"
	"strings"
	"testing"
)

// Every figure the registry defines is one a summary has: a stale name
// would judge nothing.
func TestRegistryNamesRealFigures(t *testing.T) {
	for _, c := range []struct {
		defs  []FigureDef
		names []string
	}{{triageDefs, Figures()}, {chatDefs, ChatFigures()}} {
		for _, d := range c.defs {
			found := slices.ContainsFunc(c.names, func(n string) bool {
				return n == d.Name || strings.HasSuffix(d.Name, ".") && strings.HasPrefix(n, d.Name)
			})
			if !found {
				t.Errorf("registry figure %q is not a summary figure", d.Name)
			}
			if d.Unit == "" || d.Doc == "" {
				t.Errorf("registry figure %q lacks its unit or doc line", d.Name)
			}
		}
	}
}

func TestRegistryDirections(t *testing.T) {
	for _, c := range []struct {
		figure       string
		higher, know bool
	}{
		{"p95_wait_outage_s", false, true},
		{"all4_right", true, true},
		{"all4_right_ci95.0", true, true},
		{"fields_right.intent", true, true},
		{"served.canned", false, true},
		{"seed", false, false},
	} {
		higher, know := HigherIsBetter(c.figure)
		if higher != c.higher || know != c.know {
			t.Errorf("HigherIsBetter(%q) = %v, %v; want %v, %v", c.figure, higher, know, c.higher, c.know)
		}
	}
	if d, _ := ChatFigure("handed_over"); d.Better != Neutral {
		t.Errorf("handed_over is %v, want neutral", d.Better)
	}
	if got := ObjectivesOf("rejected", "all4_right"); !slices.Equal(got, []Objective{{Figure: "rejected"}, {Figure: "all4_right", Higher: true}}) {
		t.Errorf("ObjectivesOf = %v", got)
	}
}
