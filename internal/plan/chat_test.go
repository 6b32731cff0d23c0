package plan

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/drillfile"
)

func TestParseSeeds(t *testing.T) {
	for in, want := range map[string][]int64{"1..5": {1, 2, 3, 4, 5}, "7": {7}, "1,4,7": {1, 4, 7}} {
		got, err := ParseSeeds(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, bad := range []string{"5..1", "x", "1..", "0..5000"} {
		if _, err := ParseSeeds(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestChatConfigsFromFlags(t *testing.T) {
	var c ChatFlags
	fs := pflag.NewFlagSet("compare", pflag.ContinueOnError)
	fs.Int64("seed", 1, "")
	fs.StringSlice("policies", nil, "")
	fs.Float64("min-tokens-per-s", 0, "")
	fs.Duration("stream-check", 0, "")
	fs.Int("trip-failures", 0, "")
	fs.Duration("cooldown", 0, "")
	c.Register(fs)
	if err := fs.Parse([]string{"--workload", "chat", "--incident", "mixed,mostly-slow", "--seeds", "1..2", "--budget-time", "60s",
		"--tool-outage", "carrier=hang", "--tool-breakers", "--conversations", "10"}); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.Chosen(fs); !ok || err != nil {
		t.Fatalf("chosen: %v %v", ok, err)
	}
	cfgs, err := ChatConfigs(fs, c, chat.PresetNames())
	if err != nil {
		t.Fatal(err)
	}
	if len(cfgs) != 2*3*2 {
		t.Fatalf("%d drills, want 2 incidents × 3 policies × 2 seeds", len(cfgs))
	}
	last := cfgs[len(cfgs)-1]
	if last.Incident != chat.IncidentMostlySlow || last.Policy.Name != chat.PresetAllChecks || last.Seed != 2 || last.Conversations != 10 {
		t.Errorf("last drill %s %s %d %d", last.Incident, last.Policy.Name, last.Seed, last.Conversations)
	}
	if cfgs[0].Policy.Budget.Time != 60e9 || cfgs[0].Overrides["budget_time"] != "1m0s" || cfgs[0].ToolBreakers == nil ||
		cfgs[0].ToolOutages["carrier"][0].From != chat.DefaultIncidentFrom {
		t.Errorf("first drill: budget %v, overrides %v, tool breakers %v, outages %v", cfgs[0].Policy.Budget, cfgs[0].Overrides, cfgs[0].ToolBreakers, cfgs[0].ToolOutages)
	}
	if err := fs.Set("workload", "batch"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Chosen(fs); err == nil {
		t.Error("an unknown workload is not refused")
	}
}

func TestWriteChatTimeline(t *testing.T) {
	f, err := drillfile.Parse("c.yaml", []byte(`workload: chat
chat:
  conversations: 200
  seeds: [1, 2, 3]
  incidents: [mixed, none]
  policies: [agent-defaults, agent-all-checks]
  policy: {turn_limit: 8}
  tool_breakers: {scope: dependency}
  tool_outages:
    carrier:
      - {kind: hang, from: 60s, to: 120s}
`))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteChatTimeline(&b, f); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"workload: chat, 200 conversations at 1/s (the last started at 199s), seeds 1, 2, 3",
		"agent-defaults   read timeout 10m0s, 2 retries, turn limit 8; no check",
		"agent-all-checks read timeout 10m0s, 2 retries, turn limit 8; status breaker",
		"tool breakers: scope dependency",
		"runs:     2 incidents × 2 policies × 3 seeds = 12 runs",
		"incident mixed\n  5m0s–10m0s  the models' incident rates\n  1m0s–2m0s  hang on the carrier service",
		"incident none\n  no incident",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in:\n%s", want, b.String())
		}
	}
}
