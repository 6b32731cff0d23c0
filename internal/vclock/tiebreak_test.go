package vclock

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/drill-dev/drill/workload"
)

// TestSameSeedSameFigures: drills of one seed run in one bubble give the
// same figures every time, on outages whose time limits run out on the
// instants emails arrive (1 s limits, 2 emails a second): simultaneous
// events are what made the scheduler's order show in the figures. The
// SDK's own retry jitter is the one thing left random, so no SDK retries.
func TestSameSeedSameFigures(t *testing.T) {
	var jobs []Job
	for _, outage := range []string{"busy", "hang"} {
		for _, policy := range []string{"breaker", "fail-fast"} {
			cfg := workload.DefaultConfig()
			p, err := workload.Preset(policy)
			if err != nil {
				t.Fatal(err)
			}
			p.Primary.TimeLimit, p.Primary.Retries, p.Backup.Retries = time.Second, 0, 0
			cfg.Outage, cfg.Policy, cfg.Emails = outage, p, 60
			for range 3 {
				jobs = append(jobs, Job{Config: cfg})
			}
		}
	}
	var first [][]byte
	for call := range 2 {
		var stderr bytes.Buffer
		outs, err := Drills(t.Context(), jobs, 0, &stderr)
		if err != nil {
			t.Fatalf("Drills: %v (stderr %s)", err, stderr.String())
		}
		for i, o := range outs {
			b, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			if call == 0 && i%3 == 0 {
				first = append(first, b)
			}
			if want := first[i/3]; !bytes.Equal(b, want) {
				t.Errorf("call %d, drill %d (%s/%s): outcome differs from the same seed's first run:\n%s\n%s",
					call+1, i+1, jobs[i].Config.Outage, jobs[i].Config.Policy.Name, b, want)
			}
		}
	}
}
