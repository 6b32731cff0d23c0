package breaker

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestZeroSettingsAreTheDefaultBreaker(t *testing.T) {
	d := Settings{}.WithDefaults()
	if d.Trip.Failures != 5 || d.Trip.Window != 10*time.Second || d.Cooldown != 5*time.Second ||
		d.ProbeTimeout != 30*time.Second || d.Probes != 1 || d.Probe != ProbeCustomer || d.Stale != StaleDrop ||
		d.RetryAfter != RetryAfterIgnore || d.Scope != ScopeRung || d.ProbeInterval != d.Cooldown {
		t.Errorf("defaults: %+v", d)
	}
	if err := (Settings{}).Validate(); err != nil {
		t.Errorf("the zero value is not valid: %v", err)
	}
	if got := (Settings{}).Record(); got.Rule != "5 failures in 10s" || got.Failures != 5 || got.Window != 10*time.Second ||
		got.Cooldown != 5*time.Second || got.ProbeTimeout != 30*time.Second {
		t.Errorf("recorded: %+v", got)
	}
}

// TestSettingsReadJournalsFromBefore: a policy's breaker as journal headers
// recorded it before breaker.Settings was the one type reads back the same.
func TestSettingsReadJournalsFromBefore(t *testing.T) {
	old := `{"trip":{"rules":["count","in-flight"],"failures":3,"window_ns":4000000000,"in_flight_age_ns":2000000000},
		"cooldown_ns":6000000000,"probe_timeout_ns":20000000000,"probes":"all","probe":"synthetic",
		"probe_interval_ns":1000000000,"stale":"count","retry_after":"honour","count_429":true,"scope":"endpoint"}`
	var s Settings
	if err := json.Unmarshal([]byte(old), &s); err != nil {
		t.Fatal(err)
	}
	if s.Trip.Failures != 3 || !s.Trip.Has(RuleInFlight) || s.Cooldown != 6*time.Second || s.Probes != ProbesAll ||
		s.Probe != ProbeSynthetic || s.Stale != StaleCount || s.RetryAfter != RetryAfterHonour || !s.Count429 || s.Scope != ScopeEndpoint {
		t.Errorf("read back: %+v", s)
	}
	if err := s.Validate(); err != nil {
		t.Errorf("valid settings: %v", err)
	}
}

func TestValidateNamesSettingsAsTheUserWroteThem(t *testing.T) {
	s := Settings{Probe: "robot", ProbeInterval: time.Second, Trip: Trip{Rules: []string{"count", "p95"}, InFlightAge: time.Second}}
	err := s.Validate()
	for _, want := range []string{
		`probe: unknown value "robot" (valid: customer, synthetic)`,
		`probe_interval: needs probe synthetic`,
		`trip: unknown rule "p95" (valid: count, consecutive, rate, slow-rate, p99, in-flight)`,
		`in_flight_age: in_flight_age and in_flight_calls need the in-flight rule (trip count,in-flight)`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v\ndoes not say %q", err, want)
		}
	}
	var se *SettingError
	if !errors.As(err, &se) {
		t.Fatalf("%v is no *SettingError", err)
	}
	flag := func(key string) string { return "--" + strings.ReplaceAll(key, "_", "-") }
	inflight := &SettingError{Key: "in_flight_age", Msg: "{in_flight_age} and {in_flight_calls} need the in-flight rule ({trip} count,in-flight)"}
	if got := inflight.Why(flag); got != "--in-flight-age and --in-flight-calls need the in-flight rule (--trip count,in-flight)" {
		t.Errorf("Why(flag) = %q", got)
	}
}

func TestProbesText(t *testing.T) {
	for in, want := range map[string]Probes{"all": ProbesAll, "3": 3} {
		if got, err := ParseProbes(in); err != nil || got != want {
			t.Errorf("ParseProbes(%q) = %v, %v", in, got, err)
		}
	}
	for _, bad := range []string{"0", "-1", "some"} {
		if _, err := ParseProbes(bad); err == nil {
			t.Errorf("ParseProbes(%q) accepted", bad)
		}
	}
	b, _ := json.Marshal(Settings{Probes: ProbesAll})
	var back Settings
	if err := json.Unmarshal(b, &back); err != nil || back.Probes != ProbesAll {
		t.Errorf("round trip %s: %v, %v", b, back.Probes, err)
	}
}
