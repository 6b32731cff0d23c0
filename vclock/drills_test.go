package vclock

import (
	"bytes"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/workload"
)

func TestDrillsSmoke(t *testing.T) {
	cfg := workload.DefaultConfig()
	var stderr bytes.Buffer
	start := time.Now()
	outs, err := Drills(t.Context(), []Job{{Config: cfg}}, 0, &stderr)
	if err != nil {
		t.Fatalf("%v (stderr %s)", err, stderr.String())
	}
	t.Logf("%v real, %+v", time.Since(start), outs[0])
	if outs[0].Summary.Clock != event.ClockVirtual {
		t.Errorf("clock %q", outs[0].Summary.Clock)
	}
}
