// Package metrics serves a drill's figures as Prometheus metrics
// (--metrics-listen ADDR), so a team sees its own dashboards move and its
// own alert rules fire while the drill runs.
//
// An Exporter follows the run's event log with a cursor, at its own pace,
// like the dashboard and the journal writer: it never slows the engine.
// Every figure comes from scoring: the fold gives the breakers, the emails
// by who served them, the waits, the calls to the broken model, tokens,
// cost and the hypotheses' live status, and scoring.CallMarkOf classifies
// the events the call counters and in-flight gauges follow, so the
// counters scraped at the end of a drill equal the run summary's figures.
// The metric set is in Metrics, with the HELP text Prometheus shows.
package metrics

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"sync"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/scoring"
)

// Breaker state values of drill_breaker_state.
const (
	BreakerClosed   = 0
	BreakerHalfOpen = 1
	BreakerOpen     = 2
)

// WaitBuckets are drill_email_wait_seconds's upper bounds, in seconds:
// from a healthy model's answer to the chapter's 16.3 s of SDK retries
// and a hang's two minutes.
var WaitBuckets = []float64{0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120}

// runLabels are on every metric: which drill the figures belong to (drill
// compare runs several, one after the other) and the run's id
// (event.RunLabel, drill_run), so an alert rule on them names the run it
// fired in and a later run can tell an earlier run's alert from its own.
var runLabels = []string{"outage", "policy", event.RunLabel}

// Metric is one metric drill serves: its name, type, labels beyond the
// run's (outage, policy, drill_run) and HELP text.
type Metric struct {
	Name   string
	Type   string // counter, gauge or histogram
	Labels []string
	Help   string
}

// The metrics, in the order Metrics lists them.
var (
	breakerState = Metric{"drill_breaker_state", "gauge", []string{"breaker"},
		"State of the circuit breaker guarding a rung or dependency: 0 closed, 1 half-open, 2 open."}
	breakerOpens = Metric{"drill_breaker_opens_total", "counter", []string{"breaker"},
		"Times the breaker opened."}
	calls = Metric{"drill_calls_total", "counter", []string{"rung", "model", "outcome"},
		"Rung calls finished (all SDK retries included), by outcome; breaker_open is a rung passed over by its open breaker."}
	callsInFlight = Metric{"drill_calls_in_flight", "gauge", []string{"rung"},
		"Rung calls started and not finished."}
	attempts = Metric{"drill_attempts_total", "counter", []string{"rung", "model", "outcome"},
		"HTTP attempts to a model finished, by outcome (each SDK retry is an attempt)."}
	attemptsInFlight = Metric{"drill_attempts_in_flight", "gauge", []string{"rung"},
		"HTTP attempts sent and not finished."}
	callsToBroken = Metric{"drill_calls_to_broken_total", "counter", nil,
		"Calls to the broken model during the outage (the summary's calls_to_broken_outage)."}
	emailsSent = Metric{"drill_emails_sent_total", "counter", nil,
		"Emails sent into the chain."}
	emailsDone = Metric{"drill_emails_total", "counter", []string{"served_by"},
		"Emails finished, by who served them: primary, backup, canned, rules, handed_over (a person), rejected (no free worker), error, cancelled."}
	emailWait = Metric{"drill_email_wait_seconds", "histogram", nil,
		"Wait of each email answered, from sent to done (cancelled emails are left out)."}
	tokens = Metric{"drill_tokens_total", "counter", []string{"rung", "direction"},
		"Tokens the model calls used, direction input or output, estimates included."}
	cost = Metric{"drill_cost_total", "counter", []string{"rung"},
		"Cost of the tokens by the run's price table, in its currency."}
	hypothesis = Metric{"drill_hypothesis_passing", "gauge", []string{"expr"},
		"1 while the hypothesis holds on the figures so far, else 0."}
	hypothesesPassing = Metric{"drill_hypotheses_passing", "gauge", nil,
		"Hypotheses holding on the figures so far."}
	hypothesesTotal = Metric{"drill_hypotheses", "gauge", nil,
		"Hypotheses the drill checks."}
	outageActive = Metric{"drill_outage_active", "gauge", nil,
		"1 while an injected outage window is open, else 0."}
	alertsReceived = Metric{"drill_alerts_received_total", "counter", []string{"alertname", "status"},
		"Alertmanager notifications received on --alert-listen, per alert and status."}
	elapsed = Metric{"drill_run_elapsed_seconds", "gauge", nil,
		"Offset of the last event of the run, in seconds from its start."}
	running = Metric{"drill_run_running", "gauge", nil,
		"1 while the run goes on, 0 once it ended."}
)

// Metrics lists every metric drill serves, for the documentation.
func Metrics() []Metric {
	return []Metric{breakerState, breakerOpens, calls, callsInFlight, attempts, attemptsInFlight, callsToBroken,
		emailsSent, emailsDone, emailWait, tokens, cost, hypothesis, hypothesesPassing, hypothesesTotal,
		outageActive, alertsReceived, elapsed, running}
}

// callKey names a counter of calls or attempts.
type callKey struct {
	rung, model string
	outcome     event.Outcome
}

// Exporter follows one run's event log and serves its figures as
// Prometheus metrics; Follow again for the next run. It is safe for
// concurrent use: a scrape reads a consistent snapshot.
type Exporter struct {
	hypotheses []scoring.Expr
	labels     Labels

	mu               sync.Mutex
	fold             *scoring.Fold
	calls, attempts  map[callKey]float64
	callsInFlight    map[string]int
	attemptsInFlight map[string]int
	alerts           map[[2]string]float64 // alertname, status
}

// New returns an Exporter that also reports the live status of the given
// hypotheses (none is fine).
func New(hypotheses []scoring.Expr) *Exporter { return NewLabelled(hypotheses, nil) }

// NewLabelled is New with labels added to every metric.
func NewLabelled(hypotheses []scoring.Expr, labels Labels) *Exporter {
	x := &Exporter{hypotheses: slices.Clone(hypotheses), labels: maps.Clone(labels)}
	x.reset()
	return x
}

// reset starts a new run's figures; the caller holds mu or owns x.
func (x *Exporter) reset() {
	x.fold = scoring.NewFold()
	x.calls, x.attempts = map[callKey]float64{}, map[callKey]float64{}
	x.callsInFlight, x.attemptsInFlight = map[string]int{}, map[string]int{}
	x.alerts = map[[2]string]float64{}
}

// Follow reads log from its first event to its end, keeping the metrics in
// step, and returns nil once the log is closed and fully read, or ctx's
// error. The metrics of the run before are dropped when it starts.
func (x *Exporter) Follow(ctx context.Context, log *event.Log) error {
	return x.Attach(log)(ctx)
}

// Attach drops the metrics of the run before and attaches a cursor to log
// at once (a log that releases events keeps them until the exporter has
// read them); the function it returns is Follow's loop.
func (x *Exporter) Attach(log *event.Log) func(ctx context.Context) error {
	x.mu.Lock()
	x.reset()
	x.mu.Unlock()
	cur := log.Cursor()
	return func(ctx context.Context) error { return x.follow(ctx, cur) }
}

// follow reads cur to the log's end, keeping the metrics in step.
func (x *Exporter) follow(ctx context.Context, cur *event.Cursor) error {
	for {
		evs, err := cur.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("metrics: following the run: %w", err)
		}
		x.Add(evs)
	}
}

// Add folds events, in log order, into the metrics.
func (x *Exporter) Add(evs []event.Event) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, e := range evs {
		x.fold.Add(e)
		if a, ok := scoring.AlertOf(e); ok {
			x.alerts[[2]string{a.Name, a.Status}]++
		}
		m, ok := scoring.CallMarkOf(e)
		if !ok {
			continue
		}
		counts, inFlight := x.calls, x.callsInFlight
		if m.Level == scoring.HTTPAttempt {
			counts, inFlight = x.attempts, x.attemptsInFlight
		}
		switch {
		case m.Started:
			inFlight[m.Rung]++
		case m.Ended:
			counts[callKey{m.Rung, m.Model, m.Outcome}]++
			if !m.Skipped && inFlight[m.Rung] > 0 {
				inFlight[m.Rung]--
			}
		}
	}
}

// collect adds the metrics of the events folded so far, a consistent
// snapshot, to byName: every metric of Metrics that has a value, each
// series labelled with the run's outage and policy, its own labels and the
// exporter's. The series' order does not matter: writeText sorts them.
func (x *Exporter) collect(byName map[string]*family) {
	x.mu.Lock()
	defer x.mu.Unlock()
	c := collector{x: x, byName: byName, run: []string{x.fold.Info.Outage, x.fold.Info.Policy, x.fold.Info.ID}}
	c.callSeries()
	c.emailSeries()
	c.costSeries()
	x.collectHypotheses(c.send)
	f := x.fold
	_, active := f.ActiveOutage()
	c.send(outageActive, boolValue(active))
	for k, n := range x.alerts {
		c.send(alertsReceived, n, k[0], k[1])
	}
	c.send(elapsed, f.Elapsed().Seconds())
	c.send(running, boolValue(!f.Done()))
}

// collector adds series to a snapshot's families: x.mu is held.
type collector struct {
	x      *Exporter
	byName map[string]*family
	run    []string // the run's label values: outage, policy, id
}

// series is a new series of m with the run's labels, m's own (values
// labels) and the exporter's. Label values come from input (a model name
// a client sent may be its key): redacted as the journal's texts are.
func (c collector) series(m Metric, labels []string) series {
	names := append(slices.Clone(runLabels), m.Labels...)
	values := append(slices.Clone(c.run), labels...)
	s := series{labels: make([]labelPair, 0, len(names)+len(c.x.labels))}
	for i, n := range names {
		if n == event.RunLabel && values[i] == "" {
			continue // a run recorded without an id (a fold fed by hand)
		}
		s.labels = append(s.labels, labelPair{n, redact.Text(values[i])})
	}
	for n, v := range c.x.labels {
		s.labels = append(s.labels, labelPair{n, redact.Text(v)})
	}
	slices.SortFunc(s.labels, func(a, b labelPair) int { return cmp.Compare(a.name, b.name) })
	return s
}

// add adds s to m's family.
func (c collector) add(m Metric, s series) {
	fam := c.byName[m.Name]
	if fam == nil {
		fam = &family{metric: m}
		c.byName[m.Name] = fam
	}
	fam.series = append(fam.series, s)
}

// send adds a series of m with value v and m's label values.
func (c collector) send(m Metric, v float64, labels ...string) {
	s := c.series(m, labels)
	s.value = v
	c.add(m, s)
}

// callSeries adds the breakers, the calls and attempts (done and in flight)
// and the calls to the broken model.
func (c collector) callSeries() {
	x, f := c.x, c.x.fold
	for _, name := range f.Breakers() {
		b := f.Breaker(name)
		c.send(breakerState, BreakerValue(b.State), name)
		c.send(breakerOpens, float64(b.Opens), name)
	}
	for k, n := range x.calls {
		c.send(calls, n, k.rung, k.model, string(k.outcome))
	}
	for k, n := range x.attempts {
		c.send(attempts, n, k.rung, k.model, string(k.outcome))
	}
	for rung, n := range x.callsInFlight {
		c.send(callsInFlight, float64(n), rung)
	}
	for rung, n := range x.attemptsInFlight {
		c.send(attemptsInFlight, float64(n), rung)
	}
	c.send(callsToBroken, float64(f.CallsToBroken()))
}

// emailSeries adds the emails sent, done by who served them, and their waits.
func (c collector) emailSeries() {
	f := c.x.fold
	c.send(emailsSent, float64(f.Sent()))
	s := f.Served()
	for _, by := range []struct {
		name string
		n    int
	}{{event.ServedPrimary, s.Primary}, {event.ServedBackup, s.Backup}, {event.ServedCanned, s.Canned},
		{event.ServedRules, s.Rules}, {event.ServedHandedOver, s.HandedOver}, {event.ServedRejected, s.Rejected},
		{event.ServedError, s.Error}, {"cancelled", s.Cancelled}} {
		c.send(emailsDone, float64(by.n), by.name)
	}
	h := c.series(emailWait, nil)
	h.hist = waitHistogram(f.Waits())
	c.add(emailWait, h)
}

// costSeries adds the tokens and the money spent, by rung.
func (c collector) costSeries() {
	tok, money := c.x.fold.Cost()
	for rung, n := range tok.InputByRung {
		c.send(tokens, float64(n), rung, "input")
		c.send(tokens, float64(tok.OutputByRung[rung]), rung, "output")
	}
	for rung, v := range money.ByRung {
		c.send(cost, v, rung)
	}
}

// collectHypotheses sends each hypothesis's live status on the summary so
// far (scoring.Expr.Live: pass, at risk, FAIL) as 1 or 0, and the count
// passing.
func (x *Exporter) collectHypotheses(send func(Metric, float64, ...string)) {
	send(hypothesesTotal, float64(len(x.hypotheses)))
	if len(x.hypotheses) == 0 {
		send(hypothesesPassing, 0)
		return
	}
	figs, err := scoring.FiguresOf(x.fold.Summary())
	passing := 0
	for _, h := range x.hypotheses {
		pass := err == nil && h.Live(figs) == scoring.LivePass
		if pass {
			passing++
		}
		send(hypothesis, boolValue(pass), h.String())
	}
	send(hypothesesPassing, float64(passing))
}

// BreakerValue is drill_breaker_state's value for a breaker state:
// 0 closed, 1 half-open, 2 open.
func BreakerValue(state string) float64 {
	switch state {
	case scoring.StateOpen:
		return BreakerOpen
	case scoring.StateHalfOpen:
		return BreakerHalfOpen
	}
	return BreakerClosed
}

// waitHistogram is the histogram of the waits (seconds) over WaitBuckets.
func waitHistogram(waits []float64) *histogram {
	sorted := slices.Clone(waits)
	sort.Float64s(sorted)
	h := &histogram{buckets: make([]uint64, len(WaitBuckets)), count: uint64(len(sorted))}
	for _, w := range sorted {
		h.sum += w
	}
	for i, le := range WaitBuckets {
		h.buckets[i] = uint64(sort.Search(len(sorted), func(i int) bool { return sorted[i] > le }))
	}
	return h
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// CheckClock refuses metrics for a run on the virtual clock: a virtual run
// jumps ahead whenever every goroutine waits and is over in milliseconds,
// so nothing could scrape it on Prometheus's clock. A usage error (exit 2).
func CheckClock(clock string) error {
	if clock == event.ClockVirtual {
		return exit.Usagef("--metrics-listen needs --clock real: a --clock virtual run is over in " +
			"milliseconds of real time, so Prometheus cannot scrape it")
	}
	return nil
}
