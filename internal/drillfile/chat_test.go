package drillfile

import (
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/chat"
)

const chatYAML = `
chat:
  conversations: 200
  policies: [agent-defaults, agent-defaults+budget]
  policy:
    turn_limit: 8
    loop_guard: 3
  profile:
    incident_from: 50s
    primary:
      incident: {overloaded: 0.5, slow: 0.2, malformed: 0.05, loop: 0.02}
    faults:
      slow: {kind: trickle, params: {tokens_per_s: 0.5}}
  tool_breakers: {scope: tool, trip_p99: 4s}
  tool_outages:
    carrier:
      - {kind: hang, from: 60s, to: 120s}
`

func TestChatSection(t *testing.T) {
	f, err := Parse("chat.yaml", []byte(chatYAML))
	if err != nil {
		t.Fatal(err)
	}
	c := f.Chat
	if c == nil || *c.Conversations != 200 || len(c.Policies) != 2 {
		t.Fatalf("chat section %+v", c)
	}
	prof, _ := chat.IncidentProfile(chat.IncidentMixed)
	c.ApplyProfile(&prof)
	if prof.IncidentFrom != 50*time.Second || prof.IncidentTo != chat.DefaultIncidentTo || prof.Primary.Incident.Overloaded != 0.5 ||
		prof.Faults[chat.ClassSlow].Params["tokens_per_s"] != "0.5" || prof.Faults[chat.ClassLoop].Kind != "loop" {
		t.Errorf("profile %+v", prof)
	}
	tb, outages, err := c.Tools()
	if err != nil || tb.Scope != chat.ToolScopeTool || tb.Settings.Trip.P99 != 4*time.Second || len(outages["carrier"]) != 1 ||
		outages["carrier"][0].To != 120*time.Second {
		t.Errorf("tools %+v %+v %v", tb, outages, err)
	}
	p, _ := chat.Preset(chat.PresetDefaults)
	if err := c.Policy.Apply(&p, func(k string) string { return k }); err != nil || p.TurnLimit != 8 || p.LoopGuard != 3 {
		t.Errorf("policy %+v %v", p, err)
	}
}

func TestChatSectionIsStrict(t *testing.T) {
	_, err := Parse("chat.yaml", []byte("chat:\n  conversation: 10\n"))
	if err == nil || !strings.Contains(err.Error(), "conversation") {
		t.Errorf("an unknown key: %v", err)
	}
	p, _ := chat.Preset(chat.PresetDefaults)
	bad := ChatPolicy{TripFailures: IntOf(3)}
	if err := bad.Apply(&p, func(k string) string { return "--" + FlagName(k) }); err == nil || !strings.Contains(err.Error(), "--status-breaker") {
		t.Errorf("trip_failures without a breaker: %v", err)
	}
}
