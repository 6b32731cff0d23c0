package chat

import (
	"strings"
	"testing"

	"github.com/drill-dev/drill/emails"
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
