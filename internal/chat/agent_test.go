package chat

import (
	"strings"
	"testing"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/tools"
)

// TestAgentProfilesSizeThePrompt: the simulation's agent sends a fixed
// prompt (system prompt and tool definitions) of about its 4,400 tokens,
// asking answers of about 300; the compact agent the built-in prompt alone.
func TestAgentProfilesSizeThePrompt(t *testing.T) {
	defs := tools.Definitions()
	sim, err := AgentProfileByName("")
	if err != nil || sim.Name != AgentSimulation {
		t.Fatalf("the default profile: %+v, %v", sim, err)
	}
	prompt := AgentSystemPrompt(sim, defs)
	if got := estimateTokens(prompt) + toolTokens(defs); got < sim.PromptTokens || got > sim.PromptTokens+150 {
		t.Errorf("simulation: fixed prompt of %d tokens, want about %d (one worked example over at most)", got, sim.PromptTokens)
	}
	if !strings.Contains(prompt, "REPLY LENGTH - Write each answer to the customer in about 300 tokens") || !strings.Contains(prompt, "Example 1. ") {
		t.Errorf("simulation prompt lacks its reply length or worked examples")
	}
	for _, e := range emails.All() {
		if n := e.Truth.OrderNumber; n != "" && strings.Contains(prompt, n) {
			t.Fatalf("the prompt holds the data set's order %s", n)
		}
	}
	compact, err := AgentProfileByName(AgentCompact)
	if err != nil {
		t.Fatal(err)
	}
	if got := AgentSystemPrompt(compact, defs); got != SystemPrompt() {
		t.Errorf("compact: the prompt is not the built-in one alone")
	}
	if _, err := AgentProfileByName("simulaton"); err == nil || !strings.Contains(err.Error(), "valid: simulation, compact") {
		t.Errorf("a misspelt profile: %v, want the valid names", err)
	}
}

// TestSimulationAgentBillsAsTheWriteUp: the simulation's agent bills as the
// write-up's: a conversation whose model repeats its lookup until the
// ten-turn limit about conversation 350's 60,200 tokens (each repeat resends
// the lookups before it), and a four-call answer about 17,500 (its 18.78 M
// over 1,000 conversations, less the loops). Bands: the conversations'
// messages and answers differ in length.
func TestSimulationAgentBillsAsTheWriteUp(t *testing.T) {
	mean := func(rates Rates, turns int, ending string) int {
		cfg := fakeConfig(40, PresetDefaults, IncidentNone)
		cfg.Profile.Primary.Normal, cfg.Profile.Fallback.Normal = rates, Rates{}
		_, events := runChat(t, cfg)
		n, sum := 0, 0
		for _, e := range events {
			if c := e.Chat; e.Kind == event.ConversationEnd && c.Turns == turns && c.Ending == ending {
				n, sum = n+1, sum+c.PromptTokens+c.CompletionTokens
			}
		}
		if n == 0 {
			t.Fatalf("no %d-turn conversation ended %s", turns, ending)
		}
		t.Logf("%d turns, %s: %d tokens", turns, ending, sum/n)
		return sum / n
	}
	if got := mean(Rates{Loop: 1}, DefaultTurnLimit, event.EndingSilent); got < 55_000 || got > 65_000 {
		t.Errorf("a loop to the turn limit bills %d tokens, want about conversation 350's 60,200 (55,000–65,000)", got)
	}
	if got := mean(Rates{}, 4, event.EndingAnswered); got < 16_000 || got > 19_000 {
		t.Errorf("a four-call answer bills %d tokens, want about 17,500 (16,000–19,000)", got)
	}
}
