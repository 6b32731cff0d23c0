package main

import (
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/workload"
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
	fs.StringSliceVar(&f.trip, "trip", nil, "trip rules of the breaker, any combination: "+strings.Join(breaker.RuleNames(), ", ")+" (default count)")
	fs.IntVar(&f.minSamples, "trip-min-samples", 0, "rate, slow-rate, p99: calls that must have finished in the window first (default 10)")
	fs.Float64Var(&f.failureRate, "trip-failure-rate", 0, "rate: open at this failure rate over the window, in (0, 1] (default 0.5)")
	fs.DurationVar(&f.slowCall, "trip-slow-call", 0, "slow-rate: a call this long or longer is slow (default 5s)")
	fs.Float64Var(&f.slowRate, "trip-slow-rate", 0, "slow-rate: open at this share of slow calls over the window, in (0, 1] (default 0.5)")
	fs.DurationVar(&f.p99, "trip-p99", 0, "p99: open when the window's p99 call duration is above this (default 5s)")
	fs.DurationVar(&f.inFlightAge, "in-flight-age", 0, "in-flight: a call unanswered this long is a failure signal at once (default 5s)")
	fs.IntVar(&f.inFlightCalls, "in-flight-calls", 0, "in-flight: open when this many calls are that old (default 1)")
	fs.StringVar(&f.probes, "probes", "1", "customer calls let through while half-open: a number, or all")
	fs.StringVar(&f.probe, "probe", workload.ProbeCustomer, "who probes a recovering model: customer (a customer's email) or synthetic (the breaker's own health call)")
	fs.DurationVar(&f.probeInterval, "probe-interval", 0, "probe synthetic: send a health call this often while open (default: the cooldown)")
	fs.DurationVar(&f.probeTimeout, "probe-timeout", 0, "a probe with no result after this counts as failed (default 30s)")
	fs.StringVar(&f.stale, "stale", string(breaker.StaleDrop), "results of calls from an earlier breaker state: drop or count")
	fs.StringVar(&f.retryAfter, "retry-after", workload.RetryAfterIgnore, "ignore or honour: an open breaker stays open at least as long as a Retry-After it saw")
	fs.BoolVar(&f.count429, "count-429", false, "count a 429 (rate limited) as a breaker failure")
	fs.BoolVar(&f.countInvalid, "count-invalid", false, "count an answer that fails the schema as a breaker failure")
	fs.BoolVar(&f.countSlow, "count-slow-stream", false, "count a stream cut by the rate floor (--min-tokens-per-s) as a breaker failure")
	fs.Float64Var(&f.minTokens, "min-tokens-per-s", 0, "cut a streamed primary answer delivering fewer tokens a second than this (0: no floor)")
	fs.DurationVar(&f.streamCheck, "stream-check", 0, "when the stream-rate floor is first checked, and how often after (default 3s)")
	fs.StringVar(&f.breakerScope, "breaker-scope", workload.BreakerScopeRung, "rung (one breaker per rung) or endpoint (one per base URL and model, shared by rungs)")

	fs.DurationVar(&f.emailDeadline, "email-deadline", 0, "one budget per email across the whole chain; on expiry the rules rung or the canned reply (0: none)")
	fs.DurationVar(&f.hedgeAfter, "hedge-after", 0, "if the primary has not answered after this, ask the backup too; first valid answer wins (0: no hedging)")
	fs.BoolVar(&f.rules, "rules", false, "add the rules rung (keyword triage, no model call) before the canned reply")
	fs.DurationVar(&f.maxRetryDelay, "primary-max-retry-delay", 0, "cap the primary SDK's wait before a retry, Retry-After included (openai-go WithMaxRetryDelay; 0: the SDK's 2m)")
}

// breakerFlags are the flags that need a breaker on the primary.
var breakerFlags = []string{"trip", "trip-min-samples", "trip-failure-rate", "trip-slow-call", "trip-slow-rate",
	"trip-p99", "in-flight-age", "in-flight-calls", "probes", "probe", "probe-interval", "probe-timeout", "stale",
	"retry-after", "count-429", "count-invalid", "count-slow-stream", "breaker-scope"}

// apply sets the options the user changed on p, checking each value; an
// unknown value is a usage error that lists the valid ones.
func (f *policyFlags) apply(fs *pflag.FlagSet, p *workload.Policy) error {
	oneOf := func(flag, v string, valid []string) error {
		if !slices.Contains(valid, v) {
			return usagef("unknown --%s %q (valid: %s)", flag, v, strings.Join(valid, ", "))
		}
		return nil
	}
	for _, name := range breakerFlags {
		if fs.Changed(name) && p.Primary.Breaker == nil {
			return usagef("--%s does not apply to policy %s (its primary has no breaker; try --policy breaker)", name, p.Name)
		}
	}
	if b := p.Primary.Breaker; b != nil {
		if fs.Changed("trip") {
			for _, r := range f.trip {
				if err := oneOf("trip", r, breaker.RuleNames()); err != nil {
					return err
				}
			}
			b.Trip.Rules = slices.Clone(f.trip)
		}
		if fs.Changed("probes") {
			n, err := workload.ParseProbes(f.probes)
			if err != nil {
				return usagef("--probes: %w", err)
			}
			b.Probes = n
		}
		for _, s := range []struct {
			flag, v string
			valid   []string
			set     func()
		}{
			{"probe", f.probe, workload.ProbeKinds, func() { b.Probe = f.probe }},
			{"stale", f.stale, breaker.StaleModes(), func() { b.Stale = breaker.Stale(f.stale) }},
			{"retry-after", f.retryAfter, workload.RetryAfterModes, func() { b.RetryAfter = f.retryAfter }},
			{"breaker-scope", f.breakerScope, workload.BreakerScopes, func() { b.Scope = f.breakerScope }},
		} {
			if !fs.Changed(s.flag) {
				continue
			}
			if err := oneOf(s.flag, s.v, s.valid); err != nil {
				return err
			}
			s.set()
		}
		setIf(fs, "trip-min-samples", &b.Trip.MinSamples, f.minSamples)
		setIf(fs, "trip-failure-rate", &b.Trip.FailureRate, f.failureRate)
		setIf(fs, "trip-slow-call", &b.Trip.SlowCall, f.slowCall)
		setIf(fs, "trip-slow-rate", &b.Trip.SlowRate, f.slowRate)
		setIf(fs, "trip-p99", &b.Trip.P99, f.p99)
		setIf(fs, "in-flight-age", &b.Trip.InFlightAge, f.inFlightAge)
		setIf(fs, "in-flight-calls", &b.Trip.InFlightCalls, f.inFlightCalls)
		setIf(fs, "probe-interval", &b.ProbeInterval, f.probeInterval)
		setIf(fs, "probe-timeout", &b.ProbeTimeout, f.probeTimeout)
		setIf(fs, "count-429", &b.Count429, f.count429)
		setIf(fs, "count-invalid", &b.CountInvalid, f.countInvalid)
		setIf(fs, "count-slow-stream", &b.CountSlowStream, f.countSlow)
		if fs.Changed("probe-interval") && b.Probe != workload.ProbeSynthetic {
			return usagef("--probe-interval needs --probe synthetic")
		}
		if (fs.Changed("in-flight-age") || fs.Changed("in-flight-calls")) && !b.Trip.Has(breaker.RuleInFlight) {
			return usagef("--in-flight-age and --in-flight-calls need the in-flight rule: --trip count,in-flight")
		}
	}
	if fs.Changed("primary-max-retry-delay") {
		if !p.HasPrimary() {
			return usagef("--primary-max-retry-delay does not apply to policy %s (it has no primary)", p.Name)
		}
		p.Primary.MaxRetryDelay = f.maxRetryDelay
	}
	for _, fl := range []string{"min-tokens-per-s", "stream-check"} {
		if fs.Changed(fl) && !p.HasPrimary() {
			return usagef("--%s does not apply to policy %s (it has no primary)", fl, p.Name)
		}
	}
	if f.minTokens < 0 {
		return usagef("--min-tokens-per-s must not be negative, got %g", f.minTokens)
	}
	setIf(fs, "min-tokens-per-s", &p.Primary.MinTokensPerS, f.minTokens)
	setIf(fs, "stream-check", &p.Primary.Check, f.streamCheck)
	setIf(fs, "email-deadline", &p.EmailDeadline, f.emailDeadline)
	setIf(fs, "hedge-after", &p.HedgeAfter, f.hedgeAfter)
	setIf(fs, "rules", &p.Rules, f.rules)
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"email-deadline", f.emailDeadline}, {"hedge-after", f.hedgeAfter}, {"primary-max-retry-delay", f.maxRetryDelay},
		{"probe-interval", f.probeInterval}, {"probe-timeout", f.probeTimeout}, {"stream-check", f.streamCheck}} {
		if d.v < 0 {
			return usagef("--%s must not be negative, got %s", d.flag, d.v)
		}
	}
	return nil
}

// setIf sets *dst to v if the flag was given.
func setIf[T any](fs *pflag.FlagSet, flag string, dst *T, v T) {
	if fs.Changed(flag) {
		*dst = v
	}
}
