package main

import (
	"context"
	"strings"
	"testing"
)

// TestChatHelpListsTheChatPolicies: with --workload chat, --help describes
// --policy (--policies) as the chat workload reads it: the chat presets
// and the chat default, not the triage presets and "breaker".
func TestChatHelpListsTheChatPolicies(t *testing.T) {
	for _, c := range []struct {
		cmd, flag, def string
	}{
		{"run", "--policy", `(default "agent-defaults")`},
		{"predict", "--policy", `(default "agent-defaults")`},
		{"compare", "--policies", `(default [agent-defaults,agent-breaker,agent-all-checks])`},
	} {
		out, _, code := execute(context.Background(), c.cmd, "--workload", "chat", "--help")
		if code != 0 {
			t.Fatalf("%s --help: exit %d", c.cmd, code)
		}
		line := flagLine(out, c.flag)
		if !strings.Contains(line, "agent-all-checks") || !strings.Contains(line, c.def) || strings.Contains(line, "fail-fast") {
			t.Errorf("%s --workload chat --help: %s reads\n%s\nwant the chat presets and %s", c.cmd, c.flag, line, c.def)
		}
		// Without it, the triage presets as before.
		out, _, _ = execute(context.Background(), c.cmd, "--help")
		if line := flagLine(out, c.flag); strings.Contains(line, "agent-") {
			t.Errorf("%s --help (triage): %s reads %s", c.cmd, c.flag, line)
		}
	}
}

// flagLine is the help's line of flag: the last line opening with it (the
// flags come after the command's text).
func flagLine(help, flag string) string {
	line := ""
	for _, l := range strings.Split(help, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), flag+" ") {
			line = l
		}
	}
	return line
}

// TestUnknownAgentProfileExitsTwo: --agent-profile with an unknown name is
// a usage error that lists the valid profiles.
func TestUnknownAgentProfileExitsTwo(t *testing.T) {
	_, errOut, code := execute(context.Background(), "compare", "--workload", "chat", "--clock", "virtual", "--agent-profile", "tiny")
	if code != 2 || !strings.Contains(errOut, `unknown agent profile "tiny" (valid: simulation, compact)`) {
		t.Errorf("exit %d, %q: want 2 and the valid profiles", code, errOut)
	}
}
