package plan

import (
	"reflect"
	"testing"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/chat"
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
