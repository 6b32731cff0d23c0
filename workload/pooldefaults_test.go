package workload

import (
	"testing"
	"time"

	"github.com/drill-dev/drill/breaker"
)

// TestWithPoolDefaultsCopiesTheBreakers: the pool's in-flight age reaches
// every breaker with the in-flight rule and no age, the run's and its
// routes', through copies: the settings the caller holds stay as they were.
func TestWithPoolDefaultsCopiesTheBreakers(t *testing.T) {
	inFlight := &breaker.Settings{Trip: breaker.Trip{Rules: []string{breaker.RuleCount, breaker.RuleInFlight}}}
	own := &breaker.Settings{Trip: breaker.Trip{Rules: []string{breaker.RuleInFlight}, InFlightAge: 3 * time.Second}}
	cfg := DefaultConfig()
	cfg.Rate, cfg.MaxInFlight = 10, 20
	cfg.Policy.Primary.Breaker = inFlight
	cfg.Policy.Backup = &RungPolicy{Breaker: own}
	cfg.Routes = []Route{{Class: "safety", Policy: Policy{Name: "breaker", Primary: RungPolicy{Breaker: inFlight}}}}

	got := cfg.WithPoolDefaults()
	if age := got.Policy.Primary.Breaker.Trip.InFlightAge; age != time.Second {
		t.Errorf("primary: in-flight age %s, want 1s", age)
	}
	if age := got.Policy.Backup.Breaker.Trip.InFlightAge; age != 3*time.Second {
		t.Errorf("backup: in-flight age %s, want its own 3s", age)
	}
	if age := got.Routes[0].Policy.Primary.Breaker.Trip.InFlightAge; age != time.Second {
		t.Errorf("route: in-flight age %s, want 1s", age)
	}
	if inFlight.Trip.InFlightAge != 0 || cfg.Routes[0].Policy.Primary.Breaker.Trip.InFlightAge != 0 {
		t.Error("WithPoolDefaults changed the caller's breaker settings in place")
	}
	cfg.MaxInFlight = 0
	if age := cfg.WithPoolDefaults().Policy.Primary.Breaker.Trip.InFlightAge; age != 0 {
		t.Errorf("without a pool: in-flight age %s, want unset (the 5 s default)", age)
	}
}
