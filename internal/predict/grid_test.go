package predict

import (
	"fmt"
	"testing"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/workload"
)

// TestGridFirstOpenInRange: settings the chapter never ran. For each, the
// measured first open of the drill (fake time) lies in the range predict
// gave before running it.
func TestGridFirstOpenInRange(t *testing.T) {
	type change func(c *workload.Config)
	trip := func(f func(tr *breaker.Trip)) change {
		return func(c *workload.Config) { f(&c.Policy.Primary.Breaker.Trip) }
	}
	grid := []struct {
		outage, policy string
		name           string
		set            change
	}{
		{"busy", "breaker", "1 failure", trip(func(tr *breaker.Trip) { tr.Failures = 1 })},
		{"busy", "breaker", "8 failures in 20s", trip(func(tr *breaker.Trip) { tr.Failures, tr.Window = 8, 20*time.Second })},
		{"hang", "breaker", "3 failures", trip(func(tr *breaker.Trip) { tr.Failures = 3 })},
		{"hang", "breaker", "limit 2s", func(c *workload.Config) { c.Policy.Primary.TimeLimit = 2 * time.Second }},
		{"hang", "breaker", "limit 8s retries 1", func(c *workload.Config) {
			c.Policy.Primary.TimeLimit, c.Policy.Primary.Retries = 8*time.Second, 1
		}},
		{"busy", "breaker", "retries 3", func(c *workload.Config) { c.Policy.Primary.Retries = 3 }},
		{"hang", "breaker", "request scope", func(c *workload.Config) { c.Policy.Scope = chain.ScopeRequest }},
		{"busy", "breaker", "rate 4/s", func(c *workload.Config) { c.Rate = 4 }},
		{"hang", "breaker", "rate 1/s", func(c *workload.Config) { c.Rate, c.Emails = 1, 60 }},
		{"hang", "fail-fast", "outage 20-50s", func(c *workload.Config) { c.OutageFrom, c.OutageTo = 20*time.Second, 50*time.Second }},
		{"busy", "breaker", "consecutive 4", trip(func(tr *breaker.Trip) { tr.Rules, tr.Failures = []string{breaker.RuleConsecutive}, 4 })},
		{"hang", "breaker", "consecutive 2", trip(func(tr *breaker.Trip) { tr.Rules, tr.Failures = []string{breaker.RuleConsecutive}, 2 })},
		{"busy", "breaker", "rate 0.5 min 10", trip(func(tr *breaker.Trip) { tr.Rules = []string{breaker.RuleRate} })},
		{"hang", "breaker", "rate 0.3 min 5 in 20s", trip(func(tr *breaker.Trip) {
			tr.Rules, tr.FailureRate, tr.MinSamples, tr.Window = []string{breaker.RuleRate}, 0.3, 5, 20*time.Second
		})},
		{"hang", "breaker", "p99 5s", trip(func(tr *breaker.Trip) { tr.Rules = []string{breaker.RuleP99} })},
		{"hang", "breaker", "slow-rate 6s 0.2", trip(func(tr *breaker.Trip) {
			tr.Rules, tr.SlowCall, tr.SlowRate = []string{breaker.RuleSlowRate}, 6*time.Second, 0.2
		})},
		{"hang", "breaker", "in-flight 4s", trip(func(tr *breaker.Trip) {
			tr.Rules, tr.InFlightAge = []string{breaker.RuleCount, breaker.RuleInFlight}, 4*time.Second
		})},
		{"hang", "breaker", "in-flight 8s × 3", trip(func(tr *breaker.Trip) {
			tr.Rules, tr.InFlightAge, tr.InFlightCalls = []string{breaker.RuleInFlight}, 8*time.Second, 3
		})},
		{"busy", "breaker", "count+rate+p99", trip(func(tr *breaker.Trip) {
			tr.Rules = []string{breaker.RuleCount, breaker.RuleRate, breaker.RuleP99}
		})},
		{"hang", "breaker", "probes all", func(c *workload.Config) { c.Policy.Primary.Breaker.Probes = breaker.ProbesAll }},
		{"hang", "fail-fast", "stale count", func(c *workload.Config) { c.Policy.Primary.Breaker.Stale = breaker.StaleCount }},
		{"busy", "fail-fast", "limit 1s", func(c *workload.Config) { c.Policy.Primary.TimeLimit = time.Second }},
		{"hang", "breaker", "email deadline 10s", func(c *workload.Config) { c.Policy.EmailDeadline = 10 * time.Second }},
		{"hang", "breaker", "hedge after 2s + in-flight 3s", func(c *workload.Config) {
			c.Policy.HedgeAfter = 2 * time.Second
			c.Policy.Primary.Breaker.Trip.Rules = []string{breaker.RuleCount, breaker.RuleInFlight}
			c.Policy.Primary.Breaker.Trip.InFlightAge = 3 * time.Second
		}},
		{"busy", "breaker", "max retry delay 250ms", func(c *workload.Config) { c.Policy.Primary.MaxRetryDelay = 250 * time.Millisecond }},
		{"slow", "breaker", "slow 5s (default)", func(c *workload.Config) {}},
		{"slow", "fail-fast", "slow 5s", func(c *workload.Config) {}},
		{"slow", "breaker", "slow 3s", slowWindow("3s", "")},
		{"slow", "breaker", "slow 2s+2s, p99 4s", func(c *workload.Config) {
			slowWindow("2s", "2s")(c)
			c.Policy.Primary.Breaker.Trip.Rules = []string{breaker.RuleCount, breaker.RuleP99}
			c.Policy.Primary.Breaker.Trip.P99 = 4 * time.Second
		}},
		{"slow", "breaker", "slow 3s, slow-rate 3.5s", func(c *workload.Config) {
			slowWindow("3s", "")(c)
			c.Policy.Primary.Breaker.Trip.Rules = []string{breaker.RuleSlowRate}
			c.Policy.Primary.Breaker.Trip.SlowCall = 3500 * time.Millisecond
		}},
		{"slow", "breaker", "slow 1s", slowWindow("1s", "")},
	}
	if len(grid) < 20 {
		t.Fatalf("grid of %d settings, want at least 20", len(grid))
	}
	for _, g := range grid {
		cfg := chapter(t, g.outage, g.policy)
		g.set(&cfg)
		check(t, fmt.Sprintf("%s/%s %s", g.outage, g.policy, g.name), cfg)
	}
}

// slowWindow sets the slow outage's delay and jitter ("" keeps a default).
func slowWindow(delay, jitter string) func(c *workload.Config) {
	return func(c *workload.Config) {
		params := map[string]string{"delay": delay}
		if jitter != "" {
			params["jitter"] = jitter
		}
		c.Outages = []event.Window{{FaultSpec: event.FaultSpec{Kind: "slow", Params: params}, From: c.OutageFrom, To: c.OutageTo}}
	}
}
