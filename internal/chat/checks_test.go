package chat

import (
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
)

// only returns a quiet day's profile with the primary's attempts all of
// one class.
func only(cfg Config, class string) Config {
	cfg.Incident, cfg.Profile.Primary.Incident = IncidentNone, nil
	cfg.Profile.Primary.Normal, cfg.Profile.Fallback.Normal = Rates{}, Rates{}
	switch class {
	case ClassOverloaded:
		cfg.Profile.Primary.Normal.Overloaded = 1
	case ClassMalformed:
		cfg.Profile.Primary.Normal.Malformed = 1
	case ClassSlow:
		cfg.Profile.Primary.Normal.Slow = 1
	}
	return cfg
}

func TestStatusBreakerSendsCallsToTheFallback(t *testing.T) {
	cfg := only(fakeConfig(30, PresetBreaker, IncidentNone), ClassOverloaded)
	sum, _ := runChat(t, cfg)
	if sum.BreakerOpens[RungPrimary] == 0 || sum.FallbackCalls == 0 || sum.Answered < 25 {
		t.Fatalf("want the breaker open and the fallback answering, got %+v", sum)
	}
	def, _ := runChat(t, only(fakeConfig(30, PresetDefaults, IncidentNone), ClassOverloaded))
	if def.Answered != 0 || def.Silent != 30 || def.Stopped[event.StopModelFailed] != 30 {
		t.Errorf("without a breaker every conversation's first call fails after its retries: %+v", def)
	}
}

// A refusal played as a 429 opens the status breaker as a 529 does: the
// breaker counts "overloaded", whatever status says it, on every attempt
// alike (the SDK's retried ones and the last).
func TestStatusBreakerCountsA429(t *testing.T) {
	cfg := only(fakeConfig(30, PresetBreaker, IncidentNone), ClassOverloaded)
	cfg.Profile.Faults[ClassOverloaded] = event.FaultSpec{Kind: "rate-limit"}
	sum, _ := runChat(t, cfg)
	if sum.BreakerOpens[RungPrimary] == 0 || sum.FallbackCalls == 0 {
		t.Fatalf("want the breaker open on 429s and the fallback answering, got %+v", sum)
	}
}

func TestValidityHandsOverAfterTwoUnparsableCalls(t *testing.T) {
	cfg := only(fakeConfig(5, PresetDefaults, IncidentNone), ClassMalformed)
	cfg.Policy = cfg.Policy.WithValidity()
	sum, _ := runChat(t, cfg)
	if sum.HandedOver != 5 || sum.Stopped[event.StopInvalid] != 5 {
		t.Fatalf("want 5 handovers for invalid tool calls, got %+v", sum)
	}
	off, _ := runChat(t, only(fakeConfig(5, PresetDefaults, IncidentNone), ClassMalformed))
	// Without the check the agent is shown each unparsable call's error,
	// tries again, and after three failures gives up on the order service
	// and escalates itself: two more model calls each.
	if off.Stopped[event.StopEscalated] != 5 || off.ModelCalls != sum.ModelCalls+10 {
		t.Errorf("without the check: %+v", off)
	}
}

func TestAttemptDeadlineCutsATrickle(t *testing.T) {
	cfg := only(fakeConfig(3, PresetDefaults, IncidentNone), ClassSlow)
	cfg.Profile.Faults[ClassSlow] = event.FaultSpec{Kind: "trickle", Params: map[string]string{"tokens_per_s": "0.2"}}
	cfg.Policy.AttemptDeadline = 20 * time.Second
	sum, _ := runChat(t, cfg)
	if sum.Silent != 3 || sum.TimeMaxS > 21 {
		t.Fatalf("want every conversation's first call cut at 20 s, got %+v", sum)
	}
}
