package drillfile

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestParseRefusesDeepNesting: YAML nested 40,000 deep (flow brackets, flow
// maps, block entries on one line, behind an anchor or a tag, and block
// maps by indentation) is refused quickly and cheaply, with the line and
// column where it passes MaxDepth.
func TestParseRefusesDeepNesting(t *testing.T) {
	const deep = 40_000
	var indented strings.Builder
	for i := range 200 {
		indented.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	for name, c := range map[string]struct {
		src, where string
	}{
		"flow lists":        {strings.Repeat("[", deep) + strings.Repeat("]", deep) + "\n", "d.yaml:1:65:"},
		"flow maps":         {"workload: " + strings.Repeat("{a: ", deep) + "\n", "d.yaml:1:"},
		"block entries":     {"outages:\n  " + strings.Repeat("- ", deep) + "x\n", "d.yaml:2:"},
		"anchored flow":     {"workload: &a !!seq " + strings.Repeat("[", deep) + "\n", "d.yaml:1:"},
		"flow over lines":   {"workload:\n" + strings.Repeat("  [\n", deep), "d.yaml:65:"},
		"indented maps":     {indented.String(), "d.yaml:65:65:"},
		"flow inside block": {strings.Repeat("- ", 40) + strings.Repeat("[", 40) + "\n", "d.yaml:1:"},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		_, err := Parse("d.yaml", []byte(c.src))
		took := time.Since(start)
		runtime.ReadMemStats(&after)
		var fe *Error
		if !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), c.where) || !strings.Contains(err.Error(), "nested deeper than 64 levels") {
			t.Errorf("%s: Parse = %v, want an *Error at %s saying it nests too deep", name, err, c.where)
		}
		if took > time.Second {
			t.Errorf("%s: Parse took %v", name, took)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
			t.Errorf("%s: Parse allocated %d bytes", name, alloc)
		}
	}
}

// TestCheckDepthAcceptsOrdinaryYAML: nesting within MaxDepth and the things
// that look like nesting but are not (brackets in plain and quoted scalars,
// in comments, and deeply indented block scalar lines) pass.
func TestCheckDepthAcceptsOrdinaryYAML(t *testing.T) {
	var block strings.Builder
	block.WriteString("note: |\n")
	for i := range 200 {
		block.WriteString("  " + strings.Repeat(" ", i) + "- a: [\n")
	}
	block.WriteString("next: 1\n")
	for name, src := range map[string]string{
		"flow at the limit":  strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + "\n",
		"block at the limit": strings.Repeat("- ", MaxDepth) + "x\n",
		"plain brackets":     "a: " + strings.Repeat("x[{", 100) + "\n",
		"quoted brackets":    "a: \"" + strings.Repeat("[", 100) + "\"\nb: '" + strings.Repeat("{", 100) + "'\n",
		"multi-line quote":   "a: \"" + strings.Repeat("[\n  ", 100) + "\"\n",
		"comments":           "# " + strings.Repeat("[", 100) + "\na: 1 # " + strings.Repeat("{", 100) + "\n",
		"block scalar":       block.String(),
		"siblings":           strings.Repeat("a:\n  b:\n    - c: 1\n      d: [1, {e: 2}]\n", 100),
	} {
		if err := checkDepth("d.yaml", []byte(src)); err != nil {
			t.Errorf("%s: %v, want no error", name, err)
		}
	}
	if err := checkDepth("d.yaml", []byte(strings.Repeat("[", MaxDepth+1))); err == nil {
		t.Error("one bracket past MaxDepth passed")
	}
}
