package chat

import (
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// TestFailedAttemptsCarryTheirTime: a refused (529) attempt is in the
// trace at the time it ended, after the SDK's backoff, not at 0.0 s.
func TestFailedAttemptsCarryTheirTime(t *testing.T) {
	cfg := quietConfig(1, PresetDefaults)
	cfg.Profile.Primary.Normal = Rates{Overloaded: 1}
	cfg.Profile.Fallback.Normal = Rates{}
	_, events := runChat(t, cfg)
	fold := scoring.NewChatFold(1)
	for _, e := range events {
		fold.Add(e)
	}
	tr, ok := fold.TraceOf()
	if !ok {
		t.Fatal("no trace of conversation 1")
	}
	var failed []time.Duration
	for _, s := range tr.Steps {
		if s.Fault == ClassOverloaded {
			failed = append(failed, s.At)
		}
	}
	// Three attempts of the first call, each after the one before: the
	// SDK's backoff (0.5 s, then 1 s, less jitter) between them.
	if len(failed) != 3 {
		t.Fatalf("trace %+v: want the first call's three refused attempts", tr.Steps)
	}
	for i, at := range failed {
		if i > 0 && at <= failed[i-1] {
			t.Errorf("refused attempts at %v: want each later than the one before", failed)
		}
	}
	if failed[2] < time.Second {
		t.Errorf("the third refused attempt at %v: want after the backoff (over 1 s)", failed[2])
	}
	for _, e := range events {
		if e.Kind == event.ModelAttempt && e.Email == 0 {
			t.Errorf("attempt %+v carries no email", e)
		}
	}
}
