package chat

import (
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// TestShapeOfTheSimulation runs the simulation's 1,000 conversations under
// the mixed incident (seed 1) with the three presets, only the budget and
// only the stream-rate check, and checks the shape the write-up reports
// that drill's mechanics give with the fake model's agent (docs/workloads.md
// says which parts do not, and why).
func TestShapeOfTheSimulation(t *testing.T) {
	if testing.Short() {
		t.Skip("five 1,000-conversation drills")
	}
	if raceDetector {
		// Figures, not concurrency: the engine's concurrency is under -race
		// in the other tests, and the race detector makes these five drills
		// take most of a package's time limit. CI runs it without -race.
		t.Skip("five 1,000-conversation drills: run without -race")
	}
	run := func(policy string) scoring.ChatSummary {
		cfg := fakeConfig(1000, PresetDefaults, IncidentMixed)
		var err error
		if cfg.Policy, err = PolicyByName(policy); err != nil {
			t.Fatal(err)
		}
		sum, _ := runChat(t, cfg)
		return sum
	}
	def, brk, all := run(PresetDefaults), run(PresetBreaker), run(PresetAllChecks)
	stream := run(PresetDefaults + "+" + CheckStream)
	budget := run(PresetDefaults + "+" + CheckBudget)
	if all.Over120s != 0 || all.Silent != 0 || all.HandedOver == 0 {
		t.Errorf("all checks: %d over 2 minutes, %d silent, %d handed over: want none, none, some", all.Over120s, all.Silent, all.HandedOver)
	}
	if def.Silent == 0 || def.TurnLimit == 0 || def.TimeP99S <= all.TimeP99S || def.Over120s == 0 {
		t.Errorf("defaults: %d silent, %d at the turn limit, p99 %g s, %d over 2 minutes: want silent endings, turn-limit endings, a p99 above all checks' %g s and waits over two minutes",
			def.Silent, def.TurnLimit, def.TimeP99S, def.Over120s, all.TimeP99S)
	}
	// The budget is checked between calls: a slow answer already streaming
	// runs on past it.
	if budget.Over120s == 0 || budget.Silent != 0 {
		t.Errorf("only the budget: %d over 2 minutes, %d silent: want some over two minutes and none silent", budget.Over120s, budget.Silent)
	}
	if brk.BreakerOpens[RungPrimary] == 0 || brk.TokensBilled <= def.TokensBilled {
		t.Errorf("breaker: %d opens, %d tokens: want it to open and bill more than the defaults' %d", brk.BreakerOpens[RungPrimary], brk.TokensBilled, def.TokensBilled)
	}
	if stream.Silent <= def.Silent {
		t.Errorf("only the stream-rate check: %d silent, want more than the defaults' %d", stream.Silent, def.Silent)
	}
}
