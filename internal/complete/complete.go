// Package complete holds what shell completion offers for drill's flags:
// the values of each flag, taken from the packages that check them, so
// completion and validation never disagree. cmd/drill registers them with
// cobra.
package complete

import (
	"strings"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/workload"
)

// FlagValues are the values shell completion offers for each flag name,
// on whichever command has it (clocks: the values of --clock). The lists come from the packages that
// check the values, so completion and validation never disagree.
func FlagValues(clocks []string) map[string]func(toComplete string) []string {
	fixed := func(vs ...string) func(string) []string { return func(string) []string { return vs } }
	models := []string{fakemodel.ModelMini, fakemodel.ModelNano}
	return map[string]func(string) []string{
		"outage":           fixed(workload.OutageKinds()...),
		"outages":          List(workload.OutageKinds()),
		"policy":           fixed(workload.PresetNames()...),
		"policies":         List(workload.PresetNames()),
		"primary-model":    fixed(models...),
		"backup-model":     fixed(models...),
		"model":            fixed(append(models, "all")...),
		"time-limit-scope": fixed(string(chain.ScopeAttempt), string(chain.ScopeRequest)),
		"breaker-scope":    fixed(breaker.Scopes()...),
		"probe":            fixed(breaker.ProbeKinds()...),
		"retry-after":      fixed(breaker.RetryAfterModes()...),
		"stale":            fixed(breaker.StaleModes()...),
		"clock":            fixed(clocks...),
		"fault":            FaultKeys,
	}
}

// List completes a comma-separated list flag: the values not given yet,
// after the ones already typed.
func List(all []string) func(string) []string {
	return func(toComplete string) []string {
		done := strings.Split(toComplete, ",")
		prefix := strings.Join(done[:len(done)-1], ",")
		if prefix != "" {
			prefix += ","
		}
		have := map[string]bool{}
		for _, d := range done {
			have[d] = true
		}
		var out []string
		for _, v := range all {
			if !have[v] {
				out = append(out, prefix+v)
			}
		}
		return out
	}
}

// FaultKeys completes --fault: every kind's parameters and the modifiers,
// as KEY=.
func FaultKeys(string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k+"=")
		}
	}
	for _, kind := range inject.Kinds() {
		keys, err := inject.Keys(kind)
		if err != nil {
			continue
		}
		for _, k := range keys {
			add(k)
		}
	}
	for _, k := range inject.ModifierKeys() {
		add(k)
	}
	return out
}
