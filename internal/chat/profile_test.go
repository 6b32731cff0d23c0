//go:build profile

package chat

import (
	"cmp"
	"os"
	"strconv"
	"testing"
	"time"
)

// TestProfileChat runs one chat drill (the mixed incident) in a bubble of
// this process, for -cpuprofile: DRILL_PROFILE_CONVERSATIONS of them
// (3,000 if unset) under DRILL_PROFILE_POLICY (all five checks if unset).
// Built with -tags profile.
func TestProfileChat(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("DRILL_PROFILE_CONVERSATIONS"))
	cfg := fakeConfig(cmp.Or(n, 3000), PresetDefaults, IncidentMixed)
	var err error
	if cfg.Policy, err = PolicyByName(cmp.Or(os.Getenv("DRILL_PROFILE_POLICY"), PresetAllChecks)); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	sum, _ := runChat(t, cfg)
	t.Logf("%d conversations under %s: %d answered, %v", cfg.Conversations, cfg.Policy.Name, sum.Answered, time.Since(start).Round(time.Millisecond))
}
