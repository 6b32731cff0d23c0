package chat

import (
	"strings"
	"testing"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
)

// fakeConfig is a run against the built-in fake model's agent and the
// in-process services.
func fakeConfig(conversations int, policy, incident string) Config {
	cfg := DefaultConfig()
	cfg.Conversations = conversations
	cfg.Profile, _ = IncidentProfile(incident)
	cfg.Policy, _ = Preset(policy)
	cfg.Models = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
	// Tools nil: the run's own in-process services, sized by the agent
	// profile, as drill runs them.
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

// TestEveryConversationTakesFourCalls: the simulation's conversation needs
// four good model calls (interpret, look up the order, look up the
// delivery, answer), so the built-in conversations are the emails that name
// an order: on a quiet day every one takes exactly four calls.
func TestEveryConversationTakesFourCalls(t *testing.T) {
	cfg := fakeConfig(240, PresetDefaults, IncidentNone)
	cfg.Profile.Primary.Normal, cfg.Profile.Fallback.Normal = Rates{}, Rates{}
	_, events := runChat(t, cfg)
	calls := map[int]int{}
	for _, e := range events {
		if e.Kind == event.ModelCall && e.Chat != nil {
			calls[e.Chat.Conversation]++
		}
	}
	if len(calls) != 240 {
		t.Fatalf("%d conversations made calls, want 240", len(calls))
	}
	for conv, n := range calls {
		if n != 4 {
			t.Errorf("conversation %d: %d model calls, want 4", conv, n)
		}
	}
}

func TestSystemPromptCarriesThePolicyAndTheRules(t *testing.T) {
	p := SystemPrompt()
	for _, want := range []string{emails.Rules(), fakemodel.HandoverSentence, "get_order", "get_delivery_status"} {
		if !strings.Contains(p, want) {
			t.Errorf("system prompt lacks %.60q", want)
		}
	}
	for _, section := range []string{"RETURNS", "REFUNDS", "EXCHANGES", "DELIVERY", "CANCELLATIONS", "ORDER CHANGES",
		"WARRANTY", "PRODUCT QUESTIONS", "COMPLAINTS", "FEEDBACK", "SAFETY", "HANDOVER", "ESCALATION", "TONE"} {
		if !strings.Contains(p, "\n"+section+" - ") {
			t.Errorf("system prompt lacks the policy's %s section", section)
		}
	}
}

// TestConversationIsASupportAgentsSize: with the fake agent and no faults,
// every call resends the system prompt (policy, rules) and the history, the
// interpretation is a paragraph, tool calls are short and the answers are
// support replies of a few hundred tokens.
func TestConversationIsASupportAgentsSize(t *testing.T) {
	cfg := fakeConfig(120, PresetDefaults, IncidentNone)
	cfg.Profile.Primary.Normal, cfg.Profile.Fallback.Normal = Rates{}, Rates{}
	_, events := runChat(t, cfg)
	type tally struct{ n, prompt, completion int }
	steps := map[string]*tally{}
	for _, e := range events {
		if e.Kind != event.ModelCall || e.Chat == nil {
			continue
		}
		s := steps[e.Chat.Step]
		if s == nil {
			s = &tally{}
			steps[e.Chat.Step] = s
		}
		s.n++
		s.prompt += e.Chat.PromptTokens
		s.completion += e.Chat.CompletionTokens
	}
	mean := func(step string, completion bool) int {
		s := steps[step]
		if s == nil || s.n == 0 {
			t.Fatalf("no %s calls", step)
		}
		if completion {
			return s.completion / s.n
		}
		return s.prompt / s.n
	}
	t.Logf("interpret %d+%d, tool call %d+%d, answer %d+%d tokens (prompt+completion, means)",
		mean(event.StepInterpret, false), mean(event.StepInterpret, true), mean(event.StepToolCall, false),
		mean(event.StepToolCall, true), mean(event.StepAnswer, false), mean(event.StepAnswer, true))
	if p := mean(event.StepInterpret, false); p < 2000 {
		t.Errorf("interpret prompt %d tokens: want the policy and rules in it (2,000 or more)", p)
	}
	if n := mean(event.StepInterpret, true); n < 100 {
		t.Errorf("interpretation %d tokens: want a paragraph", n)
	}
	if n := mean(event.StepToolCall, true); n > 40 {
		t.Errorf("tool call %d tokens: want a call", n)
	}
	if n := mean(event.StepAnswer, true); n < 150 || n > 500 {
		t.Errorf("answer %d tokens: want a support reply's few hundred", n)
	}
	if mean(event.StepAnswer, false) <= mean(event.StepInterpret, false) {
		t.Error("the answer's prompt is not longer than the first call's: want the history resent")
	}
}
