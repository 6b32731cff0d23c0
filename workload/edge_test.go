package workload

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/edge"
)

// TestValidateNumbersAtTheEdge: the values that once passed validate and
// then failed or misbehaved in the run (NaN and infinite floors, a rate so
// low the second email came at once, durations that overflow, windows past
// the week a journal reader accepts) are refused by Validate, naming the
// setting; the extremes inside the bounds pass.
func TestValidateNumbersAtTheEdge(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(*Config)
		want string
	}{
		{"NaN floor", func(c *Config) { c.Policy.Primary.MinTokensPerS = math.NaN() }, "primary min tokens per second must be a number"},
		{"infinite floor", func(c *Config) { c.Policy.Primary.MinTokensPerS = math.Inf(1) }, "primary min tokens per second must be finite"},
		{"rate 1e-300", func(c *Config) { c.Rate = 1e-300 }, "rate must be at least 0.001"},
		{"a run past a week", func(c *Config) { c.Emails, c.Rate = MaxEmails, 1 }, "takes longer than 168h0m0s"},
		{"outage to MaxInt64", func(c *Config) { c.OutageTo = math.MaxInt64 }, "the outage's end must be at most 168h0m0s"},
		{"window to MaxInt64", func(c *Config) {
			c.Outage = OutageNone
			c.Outages = []event.Window{{FaultSpec: event.FaultSpec{Kind: "busy"}, From: time.Second, To: math.MaxInt64}}
		}, "its end must be at most 168h0m0s"},
		{"window rate NaN", func(c *Config) {
			c.Outage = OutageNone
			c.Outages = []event.Window{{FaultSpec: event.FaultSpec{Kind: "busy"}, From: time.Second, To: 2 * time.Second, Rate: math.NaN()}}
		}, "rate must be above 0 and at most 1"},
		{"time limit MaxInt64", func(c *Config) { c.Policy.Primary.TimeLimit = math.MaxInt64 }, "primary time limit must be at most"},
		{"max duration past a week", func(c *Config) { c.MaxDuration = edge.MaxDuration + 1 }, "max duration must be at most"},
		{"infinite max spend", func(c *Config) { c.MaxSpend = math.Inf(1) }, "max spend"},
	} {
		cfg := DefaultConfig()
		c.set(&cfg)
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Validate = %v, want %q", c.name, err, c.want)
		}
	}
	ok := DefaultConfig()
	ok.Rate, ok.Emails, ok.OutageTo = edge.MinRate, 600, edge.MaxDuration
	ok.MaxDuration = edge.MaxDuration
	if err := ok.Validate(); err != nil {
		t.Errorf("the extremes inside the bounds: %v", err)
	}
}
