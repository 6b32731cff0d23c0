package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/internal/drillfile"
)

// policyFlags are the breaker rules and chain options of issue 10: trip
// rules, half-open probes, stale results, Retry-After, what counts as a
// failure, breaker scope, and the chain's deadline, hedging, rules rung and
// SDK retry-delay cap. Breaker flags apply to the primary's breaker.
type policyFlags struct {
	trip          []string
	minSamples    int
	failureRate   float64
	slowCall      time.Duration
	slowRate      float64
	p99           time.Duration
	inFlightAge   time.Duration
	inFlightCalls int
	probes        string
	probe         string
	probeInterval time.Duration
	probeTimeout  time.Duration
	stale         string
	retryAfter    string
	count429      bool
	countInvalid  bool
	countSlow     bool
	breakerScope  string
	minTokens     float64
	streamCheck   time.Duration

	emailDeadline time.Duration
	hedgeAfter    time.Duration
	rules         bool
	maxRetryDelay time.Duration
}

func (f *policyFlags) register(fs *pflag.FlagSet) {
	// Every default comes from the one place it is written; pflag shows it.
	// Only flags the user sets become overrides (flagOverrides).
	d := breaker.Settings{}.WithDefaults()
	t := d.Trip
	fs.StringSliceVar(&f.trip, "trip", t.Rules, "trip rules of the breaker, any combination: "+strings.Join(breaker.RuleNames(), ", "))
	fs.IntVar(&f.minSamples, "trip-min-samples", t.MinSamples, "rate, slow-rate, p99: calls that must have finished in the window first")
	fs.Float64Var(&f.failureRate, "trip-failure-rate", t.FailureRate, "rate: open at this failure rate over the window, in (0, 1]")
	fs.DurationVar(&f.slowCall, "trip-slow-call", t.SlowCall, "slow-rate: a call this long or longer is slow")
	fs.Float64Var(&f.slowRate, "trip-slow-rate", t.SlowRate, "slow-rate: open at this share of slow calls over the window, in (0, 1]")
	fs.DurationVar(&f.p99, "trip-p99", t.P99, "p99: open when the window's p99 call duration is above this")
	fs.DurationVar(&f.inFlightAge, "in-flight-age", t.InFlightAge, "in-flight: a call unanswered this long is a failure signal at once")
	fs.IntVar(&f.inFlightCalls, "in-flight-calls", t.InFlightCalls, "in-flight: open when this many calls are that old")
	fs.StringVar(&f.probes, "probes", d.Probes.String(), "customer calls let through while half-open: a number, or all")
	fs.StringVar(&f.probe, "probe", string(d.Probe), "who probes a recovering model: customer (a customer's email) or synthetic (the breaker's own health call)")
	fs.DurationVar(&f.probeInterval, "probe-interval", 0, "probe synthetic: send a health call this often while open (default: the cooldown)")
	fs.DurationVar(&f.probeTimeout, "probe-timeout", d.ProbeTimeout, "a probe with no result after this counts as failed")
	fs.StringVar(&f.stale, "stale", string(d.Stale), "results of calls from an earlier breaker state: "+strings.Join(breaker.StaleModes(), " or "))
	fs.StringVar(&f.retryAfter, "retry-after", string(d.RetryAfter), strings.Join(breaker.RetryAfterModes(), " or ")+": an open breaker stays open at least as long as a Retry-After it saw")
	fs.BoolVar(&f.count429, "count-429", false, "count a 429 (rate limited) as a breaker failure")
	fs.BoolVar(&f.countInvalid, "count-invalid", false, "count an answer that fails the schema as a breaker failure")
	fs.BoolVar(&f.countSlow, "count-slow-stream", false, "count a stream cut by the rate floor (--min-tokens-per-s) as a breaker failure")
	fs.Float64Var(&f.minTokens, "min-tokens-per-s", 0, "cut a streamed primary answer delivering fewer tokens a second than this (0: no floor)")
	fs.DurationVar(&f.streamCheck, "stream-check", 0, "when the stream-rate floor is first checked, and how often after (default 3s)")
	fs.StringVar(&f.breakerScope, "breaker-scope", string(d.Scope), "rung (one breaker per rung) or endpoint (one per base URL and model, shared by rungs)")

	fs.DurationVar(&f.emailDeadline, "email-deadline", 0, "one budget per email across the whole chain; on expiry the rules rung or the canned reply (0: none)")
	fs.DurationVar(&f.hedgeAfter, "hedge-after", 0, "if the primary has not answered after this, ask the backup too; first valid answer wins (0: no hedging)")
	fs.BoolVar(&f.rules, "rules", false, "add the rules rung (keyword triage, no model call) before the canned reply")
	fs.DurationVar(&f.maxRetryDelay, "primary-max-retry-delay", 0, "cap the primary SDK's wait before a retry, Retry-After included (openai-go WithMaxRetryDelay; 0: the SDK's 2m)")
}

// flagOverrides are the policy overrides given as flags: for every
// drill-file override key (drillfile.OverrideKeys), its flag
// (drillfile.FlagName) when the user set it. drill run, drill compare and
// the drill-file paths all apply them with drillfile.Overrides, the one
// place policy overrides are checked and set.
func flagOverrides(fs *pflag.FlagSet) drillfile.Overrides {
	var o drillfile.Overrides
	for _, key := range drillfile.OverrideKeys() {
		name := drillfile.FlagName(key)
		if !fs.Changed(name) {
			continue
		}
		var err error
		switch dst := o.Field(key).(type) {
		case **drillfile.Duration:
			var d time.Duration
			d, err = fs.GetDuration(name)
			*dst = ptr(drillfile.Duration(d))
		case **drillfile.Int:
			var n int
			n, err = fs.GetInt(name)
			*dst = drillfile.IntOf(n)
		case **float64:
			var v float64
			v, err = fs.GetFloat64(name)
			*dst = &v
		case **bool:
			var v bool
			v, err = fs.GetBool(name)
			*dst = &v
		case **string:
			var v string
			v, err = fs.GetString(name)
			*dst = &v
		case **drillfile.Word:
			var v string
			v, err = fs.GetString(name)
			*dst = ptr(drillfile.Word(v))
		case *drillfile.Rules:
			*dst, err = fs.GetStringSlice(name)
		default:
			err = fmt.Errorf("no flag type for override %s (%T)", key, dst)
		}
		if err != nil {
			// A flag of another type than its override: a build error
			// TestEveryOverrideIsAFlag catches.
			panic(fmt.Sprintf("flag --%s: %v", name, err))
		}
	}
	return o
}

func ptr[T any](v T) *T { return &v }
