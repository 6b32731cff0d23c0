package main

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/breaker"
)

// registerPolicyFlags adds the breaker rules and chain options of issue 10:
// trip rules, half-open probes, stale results, Retry-After, what counts as
// a failure, breaker scope, and the chain's deadline, hedging, rules rung
// and SDK retry-delay cap. Breaker flags apply to the primary's breaker.
// Every default comes from the one place it is written, and pflag shows
// it; only flags the user sets become overrides (plan.FlagOverrides).
func registerPolicyFlags(fs *pflag.FlagSet) {
	d := breaker.Settings{}.WithDefaults()
	t := d.Trip
	fs.StringSlice("trip", t.Rules, "trip rules of the breaker, any combination: "+strings.Join(breaker.RuleNames(), ", "))
	fs.Int("trip-min-samples", t.MinSamples, "rate, slow-rate, p99: calls that must have finished in the window first")
	fs.Float64("trip-failure-rate", t.FailureRate, "rate: open at this failure rate over the window, in (0, 1]")
	fs.Duration("trip-slow-call", t.SlowCall, "slow-rate: a call this long or longer is slow")
	fs.Float64("trip-slow-rate", t.SlowRate, "slow-rate: open at this share of slow calls over the window, in (0, 1]")
	fs.Duration("trip-p99", t.P99, "p99: open when the window's p99 call duration is above this")
	fs.Duration("in-flight-age", t.InFlightAge, "in-flight: a call unanswered this long is a failure signal at once")
	fs.Int("in-flight-calls", t.InFlightCalls, "in-flight: open when this many calls are that old")
	fs.String("probes", d.Probes.String(), "customer calls let through while half-open: a number, or all")
	fs.String("probe", string(d.Probe), "who probes a recovering model: customer (a customer's email) or synthetic (the breaker's own health call)")
	fs.Duration("probe-interval", 0, "probe synthetic: send a health call this often while open (default: the cooldown)")
	fs.Duration("probe-timeout", d.ProbeTimeout, "a probe with no result after this counts as failed")
	fs.String("stale", string(d.Stale), "results of calls from an earlier breaker state: "+strings.Join(breaker.StaleModes(), " or "))
	fs.String("retry-after", string(d.RetryAfter), strings.Join(breaker.RetryAfterModes(), " or ")+": an open breaker stays open at least as long as a Retry-After it saw")
	fs.Bool("count-429", false, "count a 429 (rate limited) as a breaker failure")
	fs.Bool("count-invalid", false, "count an answer that fails the schema as a breaker failure")
	fs.Bool("count-slow-stream", false, "count a stream cut by the rate floor (--min-tokens-per-s) as a breaker failure")
	fs.Float64("min-tokens-per-s", 0, "cut a streamed primary answer delivering fewer tokens a second than this (0: no floor)")
	fs.Duration("stream-check", 0, "when the stream-rate floor is first checked, and how often after (default 3s)")
	fs.String("breaker-scope", string(d.Scope), "rung (one breaker per rung) or endpoint (one per base URL and model, shared by rungs)")

	fs.Duration("email-deadline", 0, "one budget per email across the whole chain; on expiry the rules rung or the canned reply (0: none)")
	fs.Duration("hedge-after", 0, "if the primary has not answered after this, ask the backup too; first valid answer wins (0: no hedging)")
	fs.Bool("rules", false, "add the rules rung (keyword triage, no model call) before the canned reply")
	fs.Duration("primary-max-retry-delay", 0, "cap the primary SDK's wait before a retry, Retry-After included (openai-go WithMaxRetryDelay; 0: the SDK's 2m)")
}
