package chat

import (
	"testing"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/tools"
)

// fakeConfig is a run against the built-in fake model's agent and the
// in-process services.
func fakeConfig(conversations int, policy, incident string) Config {
	cfg := DefaultConfig()
	cfg.Conversations = conversations
	cfg.Profile, _ = IncidentProfile(incident)
	cfg.Policy, _ = Preset(policy)
	cfg.Models = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
	cfg.Tools = tools.NewInProcess(emails.All(), 0, nil)
	return cfg
}

func TestFakeAgentAnswersInFourCalls(t *testing.T) {
	cfg := fakeConfig(120, PresetDefaults, IncidentNone)
	cfg.Profile.Primary.Normal, cfg.Profile.Fallback.Normal = Rates{}, Rates{}
	sum, _ := runChat(t, cfg)
	t.Logf("%+v", sum)
	if sum.Answered+sum.HandedOver != 120 || sum.Silent != 0 {
		t.Fatalf("want every conversation answered or escalated by the agent, got %+v", sum)
	}
}
