// Package predict is the breaker-trip arithmetic the chapter teaches, done
// from a drill's settings and outage alone, before running: how long one
// failure takes to be counted (attempts × limit plus the SDK's backoff range
// with its jitter), when the Nth failure lands at the arrival rate, the
// first open time as a range, the worst-case wait of an email and the calls
// to the broken model. The range comes from replaying the arrival schedule
// against the breaker's own code on a paper clock, once for each extreme of
// the SDK's jitter and of the healthy model's latency; see Compute.
package predict

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/sdkprofile"
	"github.com/drill-dev/drill/workload"
)

// Range is an interval in seconds, [low, high]; JSON writes it as a
// two-element array.
type Range [2]float64

// Contains reports whether x is in the range, with a millisecond of slack
// for rounding.
func (r Range) Contains(x float64) bool { return x >= r[0]-0.001 && x <= r[1]+0.001 }

// String formats the range as "16.1–16.5 s", or "16.3 s" when both ends agree.
func (r Range) String() string {
	if math.Abs(r[1]-r[0]) < 0.05 {
		return fmt.Sprintf("%.1f s", r[0])
	}
	return fmt.Sprintf("%.1f–%.1f s", r[0], r[1])
}

func (r Range) widen(x float64) Range {
	return Range{min(r[0], x), max(r[1], x)}
}

// Prediction is what predict says of one drill before it runs.
type Prediction struct {
	Outage string
	Policy string
	// SDK is the client library predicted for, with its version
	// ("openai-go 3.98.0").
	SDK string
	// Attempts is how many attempts one call sent in the outage makes
	// while the outage lasts.
	Attempts int
	// FailureS is how long one call against the outage takes to fail and
	// be counted; nil when it never fails (a hang with no time limit).
	FailureS *Range
	// NthFailureS is when the Nth failure lands, after the outage starts,
	// for the count and consecutive rules (N is their threshold); nil
	// without a breaker or when failures never land.
	NthFailureS *Range
	// FirstOpenS is when the breaker first opens after the outage starts;
	// nil when it has no breaker or never opens.
	FirstOpenS *Range
	// MayNeverOpen is true when some replays open the breaker and others
	// never do (FirstOpenS is the range of those that open): whether it
	// opens depends on latency draws predict cannot know.
	MayNeverOpen bool
	// WorstWaitS is the worst wait of an email sent during the outage; nil
	// when unbounded (a hang with no time limit waits for the ceiling).
	WorstWaitS *Range
	// CallsToBroken is the range of attempts to the broken model that
	// start during the outage.
	CallsToBroken Range
	// SlowHealthy is how many healthy calls before the outage predict
	// assumes, at worst, were slow enough to fail or trip a rule.
	SlowHealthy int
	// Lines is the arithmetic, one step a line, as drill predict prints it.
	Lines []string
	// Note says why nothing was predicted (NotPredicted), "" when the
	// figures are set; a run's summary carries it as predicted_note.
	Note string
}

// Keys returns the predicted_* keys a run summary carries beside the
// measured figures: predicted_failure_s, predicted_nth_failure_s,
// predicted_first_open_s, predicted_worst_wait_s (each [low, high] seconds
// or null), predicted_may_never_open (true when the breaker may also never
// open) and predicted_calls_to_broken ([low, high]).
func (p Prediction) Keys() map[string]any {
	rng := func(r *Range) any {
		if r == nil {
			return nil
		}
		return [2]float64{round(r[0]), round(r[1])}
	}
	var calls any = [2]float64{p.CallsToBroken[0], p.CallsToBroken[1]}
	if p.Note != "" {
		calls = nil // nothing predicted, as a run's summary leaves it
	}
	return map[string]any{
		"predicted_failure_s":       rng(p.FailureS),
		"predicted_nth_failure_s":   rng(p.NthFailureS),
		"predicted_first_open_s":    rng(p.FirstOpenS),
		"predicted_may_never_open":  p.MayNeverOpen,
		"predicted_worst_wait_s":    rng(p.WorstWaitS),
		"predicted_calls_to_broken": calls,
		"predicted_note":            p.Note,
	}
}

func round(x float64) float64 { return math.Round(x*1000) / 1000 }

// Compute predicts cfg's drill as drill runs it, with openai-go. It
// assumes the fault hits every attempt to the target rung that starts
// inside the outage window: busy fails an attempt at once, hang holds it
// until its time limit.
func Compute(cfg workload.Config) (Prediction, error) {
	return ComputeFor(cfg, goSDK())
}

func goSDK() sdkprofile.Profile {
	p, _ := sdkprofile.Lookup(sdkprofile.Go)
	return p
}

// ComputeFor predicts cfg's drill for a service whose client library is
// sdk: the rung's retries and time limit are that library's settings
// (its timeout option; its default when the rung sets none), and its
// backoff, Retry-After rules and time-limit coverage are the profile's.
func ComputeFor(cfg workload.Config, sdk sdkprofile.Profile) (Prediction, error) {
	return computeFor(context.Background(), cfg, sdk)
}

// computeFor is ComputeFor, given up with ctx's error when ctx ends: the
// simulation walks every email of the drill, and a drill of a million
// emails must still stop on Ctrl-C.
func computeFor(ctx context.Context, cfg workload.Config, sdk sdkprofile.Profile) (Prediction, error) {
	if err := cfg.Validate(); err != nil {
		return Prediction{}, err
	}
	p := Prediction{Outage: cfg.Outage, Policy: cfg.Policy.Name, SDK: sdk.Label()}
	if cfg.Outage == workload.OutageNone {
		p.Lines = []string{"no outage: nothing to predict"}
		return p, nil
	}
	m, err := newModel(cfg, sdk)
	if np, ok := errors.AsType[*NotPredicted](err); ok {
		p.Note = np.Reason
		p.Lines = []string{"not predicted: " + np.Reason}
		return p, nil
	}
	if err != nil {
		return p, err
	}
	p.Attempts = m.attempts()
	fail, ok := m.failure()
	if ok {
		p.FailureS = &fail
	}
	if m.sdk.Name != sdkprofile.Go {
		p.Lines = append(p.Lines, m.sdkLine())
	}
	p.Lines = append(p.Lines, m.failureLine(fail, ok))

	rs, err := m.replays(ctx)
	if err != nil {
		return p, err
	}
	p.CallsToBroken = rs.calls
	p.SlowHealthy = m.slowK
	if !rs.unbounded && !math.IsInf(rs.worst[0], 1) {
		worst := rs.worst
		p.WorstWaitS = &worst
	}
	if m.bp != nil {
		m.breakerLines(&p, rs, fail, ok)
	} else {
		p.Lines = append(p.Lines, "no breaker on the broken rung: every email in the outage pays the full failure")
	}
	switch {
	case p.WorstWaitS != nil:
		p.Lines = append(p.Lines, fmt.Sprintf("worst wait of an email sent in the outage: %s", *p.WorstWaitS))
	case m.hang:
		p.Lines = append(p.Lines, "worst wait: unbounded (a hang with no time limit waits until the run's ceiling)")
	default:
		p.Lines = append(p.Lines, "worst wait: unbounded (no time limit covers the attempt: it waits until the run's ceiling)")
	}
	calls := rs.calls
	p.Lines = append(p.Lines, "calls to the broken model during the outage: "+format.CountRange(calls[0], calls[1]))
	return p, nil
}

// replayed is what the scenarios' replays found: the ranges of the first
// open, the worst wait and the calls to the broken model, and whether a
// replay never opened, waited without bound, or opened before the outage.
type replayed struct {
	first, worst, calls          Range
	neverOpens, unbounded, flaps bool
}

// replays replays every scenario and gathers the ranges.
func (m *model) replays(ctx context.Context) (replayed, error) {
	rs := replayed{first: Range{math.Inf(1), math.Inf(-1)}, worst: Range{math.Inf(1), math.Inf(-1)}, calls: Range{math.Inf(1), math.Inf(-1)}}
	for _, sc := range m.scenarios() {
		r, err := m.simulate(ctx, sc)
		if err != nil {
			return rs, err
		}
		rs.flaps = rs.flaps || r.openedBefore
		if r.opened {
			rs.first = rs.first.widen(r.firstOpen)
		} else {
			rs.neverOpens = true
		}
		if math.IsInf(r.worstWait, 1) {
			rs.unbounded = true
		} else {
			rs.worst = rs.worst.widen(r.worstWait)
		}
		rs.calls = rs.calls.widen(float64(r.calls))
	}
	return rs, nil
}

// breakerLines adds the breaker's figures and lines to p: the nth failure
// for a counting rule, opens before the outage, slow healthy calls and the
// first open. fail is the failure's range (ok: it has one).
func (m *model) breakerLines(p *Prediction, rs replayed, fail Range, ok bool) {
	b, first := m.bp, rs.first
	if ok && m.counted() && (b.Trip.Has(breaker.RuleCount) || b.Trip.Has(breaker.RuleConsecutive)) {
		nth := m.nthFailure(fail)
		p.NthFailureS = &nth
		p.Lines = append(p.Lines, m.nthLine(fail, nth))
	}
	if rs.flaps && ok {
		// Open, half-open or closed when the outage starts: at worst it
		// sits out a cooldown, lets a probe through (the next email),
		// and that probe, started healthy, is cut at the limit or fails
		// against the outage.
		hi := m.bp.Cooldown.Seconds() + m.interval + max(fail[1], m.rp.TimeLimit.Seconds())
		first = Range{0, max(first[1], hi)}
		p.Lines = append(p.Lines, fmt.Sprintf("healthy calls can open the breaker before the outage (slow calls over %s): after it starts, the breaker opens again within a cooldown and one failed probe, %s",
			format.GoDuration(m.slowThreshold()), first))
	}
	if m.slowK > 0 {
		p.Lines = append(p.Lines, fmt.Sprintf("healthy calls slower than %s: p = %.3f each, so up to %d of the %d calls in a %s window (mean + 2 sd) may fail or trip a rule before the outage",
			format.GoDuration(m.slowThreshold()), m.pSlow, m.slowK, m.windowCalls(), format.GoDuration(m.trip.Window)))
	}
	switch {
	case !math.IsInf(first[0], 1) && !rs.neverOpens:
		p.FirstOpenS = &first
		p.Lines = append(p.Lines, fmt.Sprintf("first open: %s after the outage starts (rules %v, replayed on the arrival schedule at both ends of the jitter and latency ranges)",
			first, m.trip.Rules))
	case !math.IsInf(first[0], 1):
		p.FirstOpenS, p.MayNeverOpen = &first, true
		p.Lines = append(p.Lines, fmt.Sprintf("first open: %s after the outage starts, or never (some replays never open)", first))
	default:
		p.Lines = append(p.Lines, fmt.Sprintf("first open: never (rules %v do not trip on this outage at this rate)", m.trip.Rules))
	}
}

// model is the drill reduced to what the arithmetic needs.
type model struct {
	cfg      workload.Config
	sdk      sdkprofile.Profile
	kind     string
	fault    sdkprofile.Fault
	rp       workload.RungPolicy // the broken rung's
	bp       *breaker.Settings   // the rung's breaker, defaults filled in; nil for none
	trip     breaker.Trip
	next     bool // a healthy model rung answers after the broken one
	hang     bool
	slow     bool          // the slow fault: answers after an added delay
	delay    time.Duration // the slow fault's delay
	jitter   time.Duration // ... plus up to this much
	request  bool          // the time limit is openai-go's request timeout
	from, to float64
	interval float64
	lat      latency // the broken model's healthy latency
	nextLat  latency // the next rung's
	pSlow    float64
	slowK    int
}

// Outages lists the outage kinds predict knows.
func Outages() []string { return []string{"busy", "hang", "rate-limit", "reset", "slow", "stall"} }

// NotPredicted is why the arithmetic does not read a drill's outage: a kind
// other than Outages, or a window with a rate, ramp or flap. It is no
// error of the drill's: a run logs it as its summary's predicted_note, and
// drill predict prints it in place of figures.
type NotPredicted struct{ Reason string }

func (e *NotPredicted) Error() string { return e.Reason }

func newModel(cfg workload.Config, sdk sdkprofile.Profile) (*model, error) {
	ws := cfg.Windows()
	if len(ws) != 1 || ws[0].Rate != 0 || ws[0].Ramp || ws[0].Flap != nil {
		return nil, &NotPredicted{"predict reads one outage window hitting every attempt (no rate, ramp or flap)"}
	}
	w := ws[0]
	if !slices.Contains(Outages(), w.Kind) {
		return nil, &NotPredicted{fmt.Sprintf("predict knows the %s outages, not %q", strings.Join(Outages(), ", "), w.Kind)}
	}
	m := &model{cfg: cfg, sdk: sdk, kind: w.Kind, hang: w.Kind == "hang", slow: w.Kind == "slow",
		request: cfg.Policy.Scope == chain.ScopeRequest && sdk.Name == sdkprofile.Go,
		from:    w.From.Seconds(), to: w.To.Seconds(), interval: 1 / cfg.Rate, delay: 5 * time.Second}
	m.fault = sdkprofile.Fault{Kind: w.Kind, Stream: cfg.Stream, RetryAfter: time.Second,
		AtBody: w.Params["at"] == "body"}
	for key, dst := range map[string]*time.Duration{"delay": &m.delay, "jitter": &m.jitter, "retry_after": &m.fault.RetryAfter} {
		if v, ok := w.Params[key]; ok {
			d, err := time.ParseDuration(v)
			if err != nil {
				return nil, fmt.Errorf("%s outage %s %q: %w", w.Kind, key, v, err)
			}
			*dst = d
		}
	}
	if w.Params["spend_cap"] == "true" {
		m.fault.RetryAfter = 0 // the quota 429 sends no hint
	}
	model, nextModel := cfg.PrimaryModel, cfg.BackupModel
	if cfg.Target == event.ServedBackup || !cfg.Policy.HasPrimary() {
		m.rp, model = *cfg.Policy.Backup, cfg.BackupModel
	} else {
		m.rp = cfg.Policy.Primary
		m.next = cfg.Policy.Backup != nil
	}
	if b := m.rp.Breaker; b != nil {
		d := b.WithDefaults()
		m.bp = &d
	}
	if m.bp != nil {
		m.trip = m.bp.Trip.WithDefaults()
	}
	m.lat, m.nextLat = modelLatency(model), modelLatency(nextModel)
	if t := m.slowThreshold(); t > 0 {
		p := m.lat.pOver(t)
		if m.rp.TimeLimit > 0 && t == m.rp.TimeLimit && !m.request {
			p = math.Pow(p, float64(m.rp.Retries+1)) // every attempt must be slow
		}
		m.pSlow = p
		m.slowK = plausibleCount(m.windowCalls(), p)
	}
	return m, nil
}

// windowCalls is how many calls start within one trip window.
func (m *model) windowCalls() int {
	return int(m.trip.Window.Seconds() * m.cfg.Rate)
}

// slowThreshold is the shortest healthy-call duration that counts against
// the broken rung: its time limit, or the in-flight age, slow-call or p99
// threshold of a rule in force; 0 if none applies.
func (m *model) slowThreshold() time.Duration {
	if m.bp == nil {
		return 0
	}
	var ts []time.Duration
	if m.rp.TimeLimit > 0 {
		ts = append(ts, m.rp.TimeLimit)
	}
	if m.trip.Has(breaker.RuleInFlight) {
		ts = append(ts, m.trip.InFlightAge)
	}
	if m.trip.Has(breaker.RuleSlowRate) {
		ts = append(ts, m.trip.SlowCall)
	}
	if m.trip.Has(breaker.RuleP99) {
		ts = append(ts, m.trip.P99)
	}
	if len(ts) == 0 {
		return 0
	}
	return slices.Min(ts)
}

// attempts is how many attempts one call sent in the outage makes while
// the outage lasts: every retry the SDK makes against busy or a hang, but
// a rate limit's retry after a long Retry-After may land after the outage.
func (m *model) attempts() int {
	if (m.hang || m.slow) && m.request {
		return 1 // the request timeout is not retried
	}
	if m.kind == "busy" || m.hang || m.slow {
		return m.rp.Retries + 1
	}
	c := m.call(m.firstIn(), m.lat.fast.Seconds(), scenario{})
	return max(len(c.broken), 1)
}

// settings are the rung's client settings as the SDK's profile reads them.
func (m *model) settings() sdkprofile.Settings {
	return sdkprofile.Settings{Retries: &m.rp.Retries, Timeout: m.rp.TimeLimit, RequestScope: m.request, MaxRetryDelay: m.rp.MaxRetryDelay}
}

// limit is the time limit of an attempt: the rung's, else the SDK's
// default (openai-go has none).
func (m *model) limit() time.Duration {
	if m.rp.TimeLimit > 0 {
		return m.rp.TimeLimit
	}
	return m.sdk.Timeout.Default
}

// counted reports whether the breaker counts a failed call against this
// outage: a rate limit only when it is asked to (count_429).
func (m *model) counted() bool {
	return m.kind != "rate-limit" || (m.bp != nil && m.bp.Count429)
}

// wait is the SDK's wait before retry k after a failure with hint, at the
// low or high end of its jitter; false when it does not retry.
func (m *model) wait(k int, hint time.Duration, high bool) (float64, bool) {
	lo, hi, ok, _ := m.sdk.Wait(k, hint, m.settings())
	if high {
		return hi.Seconds(), ok
	}
	return lo.Seconds(), ok
}

// sdkLine says which client library the prediction is for, and what of
// the rung's settings it reads differently from openai-go.
func (m *model) sdkLine() string {
	s := fmt.Sprintf("sdk: %s (its profile read from %s): %d retries, time limit %s",
		m.sdk.Label(), strings.Join(m.sdk.Files(), ", "), m.rp.Retries, format.GoDuration(m.limit()))
	if m.rp.TimeLimit == 0 {
		s += " (its default)"
	}
	if m.cfg.Policy.Scope == chain.ScopeRequest {
		s += "; the request scope is openai-go's option.WithRequestTimeout: " + m.sdk.Package + " has one timeout per attempt, used here"
	}
	return s
}

// failure is the range of how long a call started in the outage takes to
// fail; false if it never does.
func (m *model) failure() (Range, bool) {
	if !(m.kind == "busy" || m.hang || m.slow) {
		// The profile plays the call against an outage that lasts.
		c := m.sdk.Play(m.fault, m.settings())
		if !c.Failed || c.Took[0] == sdkprofile.Forever {
			return Range{}, false
		}
		r := Range{c.Took[0].Seconds(), c.Took[1].Seconds()}
		if m.request && m.rp.TimeLimit > 0 {
			r = Range{min(r[0], m.rp.TimeLimit.Seconds()), min(r[1], m.rp.TimeLimit.Seconds())}
		}
		return r, true
	}
	limit := m.limit().Seconds()
	if m.slow {
		// A slow attempt fails only when its limit cuts it: then it is a
		// hang as far as the breaker can tell.
		if limit == 0 || (m.delay+m.jitter+m.lat.slow).Seconds() <= limit {
			return Range{}, false
		}
	}
	if (m.hang || m.slow) && limit == 0 {
		return Range{}, false
	}
	n := m.attempts()
	bl, bh := m.backoffSum(n - 1)
	per := 0.0
	if m.hang || m.slow {
		per = limit
	}
	r := Range{float64(n)*per + bl.Seconds(), float64(n)*per + bh.Seconds()}
	if m.request && limit > 0 {
		r = Range{min(r[0], limit), min(r[1], limit)}
	}
	return r, true
}

func (m *model) failureLine(f Range, ok bool) string {
	if !(m.kind == "busy" || m.hang || m.slow) {
		return m.profileLine(f, ok)
	}
	if !ok && m.slow {
		return fmt.Sprintf("one failure: never counted (a slow answer, %s–%s late, fits the %s limit, or there is none)",
			format.GoDuration(m.delay), format.GoDuration(m.delay+m.jitter), format.GoDuration(m.rp.TimeLimit))
	}
	if !ok {
		return "one failure: never counted (a hang with no time limit: the SDK waits forever)"
	}
	n := m.attempts()
	per := "0 s (an instant 503)"
	if m.hang || m.slow {
		per = format.GoDuration(m.limit()) + " limit"
	}
	bl, bh := m.backoffSum(n - 1)
	backoff := format.Secs3(bl.Seconds()) + "–" + format.Secs3(bh.Seconds())
	if format.Secs3(bl.Seconds()) == format.Secs3(bh.Seconds()) {
		backoff = format.Secs3(bl.Seconds())
	}
	s := fmt.Sprintf("one failure: %d attempt(s) × %s + backoff %s s (0.5 s doubling, minus up to 25 %% jitter) = %s",
		n, per, backoff, f)
	if m.request {
		s += fmt.Sprintf(" (request scope: at most the %s request timeout, not retried on a hang)", format.GoDuration(m.rp.TimeLimit))
	}
	return s
}

// firstIn is the send time of the first email at or after the outage start.
func (m *model) firstIn() float64 {
	return math.Ceil(m.from*m.cfg.Rate-1e-9) / m.cfg.Rate
}

func (m *model) nthFailure(f Range) Range {
	n := float64(m.trip.Failures - 1)
	t0 := m.firstIn() - m.from
	return Range{t0 + n*m.interval + f[0], t0 + n*m.interval + f[1]}
}

func (m *model) nthLine(f, nth Range) string {
	return fmt.Sprintf("failure %d lands at %.1f s + %d × %.2f s + %s = %s after the outage starts (emails every %.2f s, the first in the outage sent at %.1f s)",
		m.trip.Failures, m.firstIn()-m.from, m.trip.Failures-1, m.interval, f, nth, m.interval, m.firstIn())
}

// scenario is one end of each range predict is unsure of.
type scenario struct {
	jitterHigh bool // the SDK's backoff without jitter (longest waits)
	slowBody   bool // healthy calls at the slow end of the body of the distribution
	slowK      bool // the slowK plausible slow calls happen, placed to trip earliest
}

func (m *model) scenarios() []scenario {
	var out []scenario
	for _, j := range []bool{false, true} {
		for _, s := range []bool{false, true} {
			out = append(out, scenario{jitterHigh: j, slowBody: s})
			if m.slowK > 0 {
				out = append(out, scenario{jitterHigh: j, slowBody: s, slowK: true})
			}
		}
	}
	return out
}

// Event is the prediction as a run logs it in its run_start info.
func (p Prediction) Event() *event.Predicted {
	rng := func(r *Range) *[2]float64 {
		if r == nil {
			return nil
		}
		return &[2]float64{round(r[0]), round(r[1])}
	}
	return &event.Predicted{FailureS: rng(p.FailureS), NthFailureS: rng(p.NthFailureS), FirstOpenS: rng(p.FirstOpenS),
		MayNeverOpen: p.MayNeverOpen, WorstWaitS: rng(p.WorstWaitS), CallsToBroken: [2]float64(p.CallsToBroken)}
}

// ForRun is what a run logs of its prediction: the figures, or a note
// saying why there are none (no outage, one the arithmetic does not read,
// or a drill interrupted before the arithmetic was done: ctx ended). Every
// caller that starts a run sets cfg.Predicted to it.
func ForRun(ctx context.Context, cfg workload.Config) *event.Predicted {
	if cfg.Outage == workload.OutageNone {
		return &event.Predicted{Note: "no outage"}
	}
	p, err := computeFor(ctx, cfg, goSDK())
	if ctx.Err() != nil {
		return &event.Predicted{Note: "not computed: the drill was interrupted first"}
	}
	if err != nil {
		return &event.Predicted{Note: err.Error()}
	}
	if p.Note != "" {
		return &event.Predicted{Note: p.Note}
	}
	return p.Event()
}

// profileLine is the failure line of an outage the SDK's profile plays
// (rate-limit, reset, stall): what one call does while the outage lasts,
// and, when its retries reach past the window, what a call sent at the
// outage's first email does in it.
func (m *model) profileLine(f Range, ok bool) string {
	s := fmt.Sprintf("one call (%s): %s", m.sdk.Label(), m.sdk.Describe(m.fault, m.settings()))
	if ok && !m.counted() {
		s += "; the breaker does not count a rate limit (count_429 is off)"
	}
	t := m.firstIn()
	lo := m.call(t, m.lat.fast.Seconds(), scenario{})
	hi := m.call(t, m.lat.fast.Seconds(), scenario{jitterHigh: true})
	if n := m.sdk.Play(m.fault, m.settings()).Attempts; len(lo.broken) < n && !math.IsInf(lo.end, 1) {
		s += fmt.Sprintf("; in this outage (%s–%s) the call sent at %s makes %s in it and ends %s after it was sent",
			format.Secs(m.from), format.Secs(m.to), format.Secs(t), format.Plural(len(lo.broken), "attempt"),
			Range{lo.end - t, hi.end - t})
		if !lo.failed {
			s += ", answered by a retry after the outage"
		}
	}
	return s
}
