package chat

import (
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/tools"
)

// carrierHang is a quiet day's run whose carrier hangs for the whole run:
// every carrier call waits out the tool timeout.
func carrierHang(conversations int, tb *ToolBreakers) Config {
	cfg := DefaultConfig()
	cfg.Conversations = conversations
	cfg.Incident, cfg.Profile = IncidentNone, Profile{}
	cfg.Profile.Primary.Normal, cfg.Profile.Fallback.Normal = Rates{}, Rates{}
	cfg.Models = fakemodel.New(fakemodel.Options{Seed: 1, LatencyScale: 1}).Transport()
	cfg.ToolOutages = map[string][]event.Window{tools.Carrier: {{FaultSpec: event.FaultSpec{Kind: "hang"}, From: 0, To: 24 * time.Hour}}}
	cfg.ToolBreakers = tb
	return cfg
}

func TestCarrierHangOpensOneBreakerForBothCarrierTools(t *testing.T) {
	sum, events := runChat(t, carrierHang(60, DefaultToolBreakers()))
	t.Logf("%d answered (%d of them without the carrier), %d handed over, %d silent, the slowest %g s",
		sum.Answered, sum.AnsweredWithout, sum.HandedOver, sum.Silent, sum.TimeMaxS)
	if sum.BreakerOpens[tools.Carrier] != 1 || len(sum.BreakerOpens) != 1 {
		t.Fatalf("breaker opens %v: want the carrier's breaker to open once, and no other", sum.BreakerOpens)
	}
	if sum.ToolsRefused == 0 || sum.ToolProbes == 0 {
		t.Errorf("refused %d, probes %d: want refused calls and synthetic probes", sum.ToolsRefused, sum.ToolProbes)
	}
	refused := map[string]bool{}
	for _, e := range events {
		if e.Kind == event.ToolCall && e.Probe && !e.Synthetic {
			t.Fatalf("a conversation's tool call was a probe: %+v", e)
		}
		if e.Kind == event.ToolCall && e.Synthetic && e.Chat.Conversation != 0 {
			t.Fatalf("a synthetic probe belongs to conversation %d", e.Chat.Conversation)
		}
		if e.Kind == event.ToolCall && e.Outcome == event.BreakerOpen {
			refused[e.Chat.Tool] = true
		}
	}
	if !refused[tools.GetDeliveryStatus] || !refused[tools.GetTrackingEvents] {
		t.Errorf("refused tools %v: the one carrier breaker should refuse both carrier tools", refused)
	}
	if sum.Answered+sum.HandedOver != 60 || sum.Silent != 0 || sum.AnsweredWithout == 0 {
		t.Errorf("want every conversation answered (some without the delivery step) or handed over, got %+v", sum)
	}
	if sum.TimeMaxS > 120 {
		t.Errorf("slowest %gs: once open, the breaker should spare conversations the 30 s timeouts", sum.TimeMaxS)
	}
}

func TestPerToolScopeTripsMoreThanOnce(t *testing.T) {
	tb := DefaultToolBreakers()
	tb.Scope = ToolScopeTool
	sum, _ := runChat(t, carrierHang(60, tb))
	if sum.BreakerOpens[tools.GetDeliveryStatus] != 1 || sum.BreakerOpens[tools.GetTrackingEvents] != 1 {
		t.Errorf("breaker opens %v: one carrier outage should trip each carrier tool's own breaker", sum.BreakerOpens)
	}
}

func TestCarrierHangWithoutBreakersWaitsOutEveryTimeout(t *testing.T) {
	sum, _ := runChat(t, carrierHang(10, nil))
	if sum.TimeP50S < 60 {
		t.Errorf("p50 %gs: without a breaker every carrier call waits 30 s and the agent tries again", sum.TimeP50S)
	}
}

// TestSlowProbeKeepsTheBreakerOpen: a carrier answering every call after
// 20 s (over the p99 rule's 10 s) for 300 s: the breaker opens once and its
// probes, slow too, fail, so it does not close into a still-slow carrier
// (it opened 6 times when a slow probe counted as a success); it closes
// after the outage.
func TestSlowProbeKeepsTheBreakerOpen(t *testing.T) {
	cfg := carrierHang(400, DefaultToolBreakers())
	cfg.ToolOutages = map[string][]event.Window{tools.Carrier: {{FaultSpec: event.FaultSpec{Kind: "slow", Params: map[string]string{"delay": "20s"}},
		From: 0, To: 300 * time.Second}}}
	sum, events := runChat(t, cfg)
	if got := sum.BreakerOpens[tools.Carrier]; got != 1 {
		t.Errorf("the carrier's breaker opened %d times in the 300 s of slowness, want once", got)
	}
	var closedAt time.Duration
	for _, e := range events {
		if e.Kind == event.BreakerChange && e.Breaker.Name == tools.Carrier && e.Breaker.To == "closed" {
			closedAt = e.At
		}
	}
	if closedAt < 300*time.Second {
		t.Errorf("the carrier's breaker closed at %s, want after the slowness ends (300 s)", closedAt)
	}
}

// TestHandoverNamesTheRefusedDependency: a conversation the agent hands
// over after the carrier's breaker refused it says so in its handover
// state, beside the reason (the model escalated).
func TestHandoverNamesTheRefusedDependency(t *testing.T) {
	_, events := runChat(t, carrierHang(60, DefaultToolBreakers()))
	n := 0
	for _, e := range events {
		if e.Kind != event.ConversationHandover || e.Chat.State.Reason != event.StopEscalated {
			continue
		}
		refusedHere := false
		for _, x := range events {
			refusedHere = refusedHere || x.Kind == event.ToolCall && x.Outcome == event.BreakerOpen && x.Chat.Conversation == e.Chat.Conversation
		}
		if !refusedHere {
			continue
		}
		n++
		if got := e.Chat.State.Refused; len(got) != 1 || got[0] != tools.Carrier {
			t.Errorf("conversation %d: handover refused %v, want [carrier]", e.Chat.Conversation, got)
		}
	}
	if n == 0 {
		t.Fatal("no conversation handed over after a refusal: the test shows nothing")
	}
}
