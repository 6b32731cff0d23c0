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

func TestWorkloadChatInAWord(t *testing.T) {
	f, err := Parse("w.yaml", []byte("workload: chat\n"))
	if err != nil || f.Chat == nil || f.Workload.Kind != "chat" {
		t.Fatalf("workload: chat alone: %+v, %v", f, err)
	}
	f, err = Parse("w.yaml", []byte("workload: chat\nchat: {conversations: 30}\n"))
	if err != nil || *f.Chat.Conversations != 30 {
		t.Fatalf("workload: chat with a chat: section: %v", err)
	}
	if f, err = Parse("w.yaml", []byte("workload: triage\n")); err != nil || f.Chat != nil {
		t.Fatalf("workload: triage: %+v, %v", f, err)
	}
	for _, tc := range []struct{ yaml, want string }{
		{"workload: chats\n", `w.yaml:1:11: workload: unknown workload "chats" (valid: triage, chat`},
		{"workload: triage\nchat: {}\n", "w.yaml:1:11: workload: triage with a chat: section"},
		{"workload: {email: 3}\n", "email"},
	} {
		_, err := Parse("w.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.yaml, err, tc.want)
		}
	}
}

func TestChatSectionErrorsNameTheLine(t *testing.T) {
	src := "chat:\n  incidents: [mixed, mostly-fast]\n  policies: [agent-defaults, agent-x]\n  policy:\n    turn_limit: 0\n    cooldown: 5s\n"
	_, err := Parse("c.yaml", []byte(src))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`c.yaml:2:22: unknown incident "mostly-fast"`,
		`c.yaml:3:30: unknown chat policy "agent-x"`,
		"c.yaml:5:17: turn_limit: must be at least 1, got 0",
		"c.yaml:6:15: cooldown: policy agent-defaults has no status breaker",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
	if n := strings.Count(err.Error(), "turn_limit"); n != 1 {
		t.Errorf("turn_limit reported %d times, want once:\n%v", n, err)
	}
}

func TestChatPolicyMerge(t *testing.T) {
	file := ChatPolicy{TurnLimit: IntOf(8), Retries: IntOf(1)}
	flags := ChatPolicy{Retries: IntOf(3)}
	got := file.Merge(flags)
	if *got.TurnLimit != 8 || *got.Retries != 3 || got.LoopGuard != nil || *file.Retries != 1 {
		t.Errorf("merged %+v (file after: retries %d)", got, *file.Retries)
	}
}

// TestChatAgentProfileKey: chat.agent_profile names a profile; an unknown
// one is an error at its line that lists the valid ones.
func TestChatAgentProfileKey(t *testing.T) {
	f, err := Parse("c.yaml", []byte("chat:\n  agent_profile: compact\n"))
	if err != nil || f.Chat.AgentProfile != "compact" {
		t.Fatalf("agent_profile: compact: %+v, %v", f, err)
	}
	_, err = Parse("c.yaml", []byte("chat:\n  agent_profile: tiny\n"))
	if err == nil || !strings.Contains(err.Error(), `c.yaml:2:18: unknown agent profile "tiny" (valid: simulation, compact)`) {
		t.Errorf("an unknown profile: %v", err)
	}
}
