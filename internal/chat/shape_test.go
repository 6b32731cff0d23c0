//go:build figures && !race

package chat

import (
	"flag"
	"testing"

	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/scoring"
)

// shapeSeed is the seed TestShapeOfTheSimulation plays: 1 in CI; the
// bands were measured on seeds 1 to 7 (-shape-seed N plays another).
var shapeSeed = flag.Int64("shape-seed", 1, "the seed TestShapeOfTheSimulation plays")

// TestShapeOfTheSimulation runs the simulation's 1,000 conversations with
// the simulation's agent (seed 1) under the mixed incident with the three
// presets, only the budget and only the stream-rate check, and under the
// mostly-slow incident with the defaults, the status breaker alone and the
// breaker fed by the stream-rate check; it checks the shapes the write-up
// reports that drill's mechanics give. The bands hold on seeds 1 to 7 as
// measured (docs/workloads.md, "Beside the simulation", gives the spread
// and says which shapes do not hold, and why); a run's figures move a
// little between runs of one seed (the SDK's backoff jitter is unseeded),
// so the checks are bands and comparisons, never single values. CI runs
// seed 1 alone (seven seeds are 56 drills, minutes on two cores);
// -shape-seed N plays seed N. Built with -tags figures, without -race: it
// checks figures, not concurrency, and takes two minutes.
func TestShapeOfTheSimulation(t *testing.T) {
	run := func(incident, policy string) scoring.ChatSummary {
		cfg := fakeConfig(1000, PresetDefaults, incident)
		cfg.Seed = *shapeSeed
		cfg.Models = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
		var err error
		if cfg.Policy, err = PolicyByName(policy); err != nil {
			t.Fatal(err)
		}
		sum, _ := runChat(t, cfg)
		return sum
	}
	mixed := func(policy string) scoring.ChatSummary { return run(IncidentMixed, policy) }
	def, brk, all := mixed(PresetDefaults), mixed(PresetBreaker), mixed(PresetAllChecks)
	stream := mixed(PresetDefaults + "+" + CheckStream)
	budget := mixed(PresetDefaults + "+" + CheckBudget)

	for _, r := range []struct {
		name string
		s    scoring.ChatSummary
	}{{"defaults", def}, {"breaker", brk}, {"all five", all}, {"budget", budget}, {"stream", stream}} {
		t.Logf("mixed, %s: %d answered, %d handed over, %d silent, p99 %g s, %d over 2 minutes, %.2f M tokens, %d breaker opens",
			r.name, r.s.Answered, r.s.HandedOver, r.s.Silent, r.s.TimeP99S, r.s.Over120s, float64(r.s.TokensBilled)/1e6, r.s.BreakerOpensTotal())
	}

	// The simulation's agent bills about the simulation's 18.78 M tokens
	// under the defaults (agent_test.go checks the conversation sizes).
	if m := float64(def.TokensBilled) / 1e6; m < 17.5 || m > 20 {
		t.Errorf("defaults bill %.2f M tokens, want about the simulation's 18.78 M (17.5–20)", m)
	}
	// Every slow call lasts 150 s: the defaults' slowest 1 % meet two.
	if def.TimeP99S <= 250 || def.Silent == 0 || def.TurnLimit == 0 {
		t.Errorf("defaults: p99 %g s, %d silent, %d at the turn limit: want a p99 over 250 s, silent and turn-limit endings", def.TimeP99S, def.Silent, def.TurnLimit)
	}
	if all.Over120s != 0 || all.Silent != 0 || all.HandedOver == 0 || all.TimeP99S >= 60 {
		t.Errorf("all checks: %d over 2 minutes, %d silent, %d handed over, p99 %g s: want none, none, some, under a minute",
			all.Over120s, all.Silent, all.HandedOver, all.TimeP99S)
	}
	// All five stop loops at the third identical call where the defaults
	// run them to the turn limit (conversation 350's 60,200 tokens), so
	// they bill less, though aborted streams bill too; they hand over on
	// the order of a hundred (the loop guard's, invalid tool calls, failed
	// calls).
	if all.TokensBilled >= def.TokensBilled || all.HandedOver < 40 || all.HandedOver > 200 {
		t.Errorf("all checks: %d tokens, %d handed over: want fewer tokens than the defaults' %d, and 40–200 handed over",
			all.TokensBilled, all.HandedOver, def.TokensBilled)
	}
	// The budget is checked between calls: a slow call already streaming
	// runs on past it, so about as many as meet a slow call wait two minutes.
	if budget.Over120s < 150 || budget.Over120s > 300 || budget.Silent != 0 {
		t.Errorf("only the budget: %d over 2 minutes, %d silent: want about two hundred (150–300) and none silent", budget.Over120s, budget.Silent)
	}
	// The breaker opens, bills more (conversations that would have failed
	// go on) and cuts the waits over two minutes, but leaves slow calls
	// that started running. Its p99 is over 300 s in most runs (14 of 24 on
	// seeds 1 to 7) and near 165 s in the others, by the SDK's unseeded
	// jitter even on one seed: a single run cannot be held to either side,
	// so docs/workloads.md gives the spread and the test does not.
	if brk.BreakerOpens[RungPrimary] == 0 || brk.TokensBilled <= def.TokensBilled || brk.Over120s >= def.Over120s || brk.Over120s == 0 {
		t.Errorf("breaker: %d opens, %d tokens, %d over 2 minutes: want it to open, bill more than the defaults' %d and leave fewer than their %d (but some) over 2 minutes",
			brk.BreakerOpens[RungPrimary], brk.TokensBilled, brk.Over120s, def.TokensBilled, def.Over120s)
	}
	if stream.Silent <= def.Silent || stream.Over120s != 0 {
		t.Errorf("only the stream-rate check: %d silent, %d over 2 minutes: want more silent than the defaults' %d, none over 2 minutes", stream.Silent, stream.Over120s, def.Silent)
	}

	// Mostly slow: the status breaker alone has no signal and plays as the
	// defaults do; fed by the stream-rate check it opens.
	slow := func(policy string) scoring.ChatSummary { return run(IncidentMostlySlow, policy) }
	sDef, sBrk, sFed := slow(PresetDefaults), slow(PresetBreaker), slow(PresetBreaker+"+"+CheckStream)
	t.Logf("mostly slow: defaults %d answered, %d over 2 minutes; breaker %d, %d, %d opens; breaker+stream %d, %d, %d opens",
		sDef.Answered, sDef.Over120s, sBrk.Answered, sBrk.Over120s, sBrk.BreakerOpensTotal(), sFed.Answered, sFed.Over120s, sFed.BreakerOpensTotal())
	if sBrk.BreakerOpens[RungPrimary] != 0 || absDiff(sBrk.Answered, sDef.Answered) > 10 || absDiff(sBrk.Over120s, sDef.Over120s) > 10 {
		t.Errorf("mostly slow, the breaker alone: %d opens, %d answered, %d over 2 minutes: want it never to open and the defaults' %d and %d (± 10)",
			sBrk.BreakerOpens[RungPrimary], sBrk.Answered, sBrk.Over120s, sDef.Answered, sDef.Over120s)
	}
	if sFed.BreakerOpens[RungPrimary] == 0 || sFed.Over120s != 0 {
		t.Errorf("mostly slow, the breaker fed by the stream check: %d opens, %d over 2 minutes: want it to open and none over 2 minutes", sFed.BreakerOpens[RungPrimary], sFed.Over120s)
	}
}

func absDiff(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}
