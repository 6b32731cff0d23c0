package scoring

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/drill-dev/drill/event"
)

// Followed is one email traced through the run (the chapter's Marcus).
type Followed struct {
	Email    int      `json:"email"`     // 0: none followed
	SentS    *float64 `json:"sent_s"`    // null if never sent
	WaitS    *float64 `json:"wait_s"`    // null if never done
	ServedBy string   `json:"served_by"` // empty if never done; "cancelled" if the run's end cut it off
}

// WindowSummary is one outage window in the summary.
type WindowSummary struct {
	Fault  string   `json:"fault"`   // busy, hang, ...; empty for an observed window
	Rung   string   `json:"rung"`    // the rung whose model it broke
	Model  string   `json:"model"`   // that rung's model
	StartS float64  `json:"start_s"` // start, seconds from the run's start
	EndS   *float64 `json:"end_s"`   // end; null while still open at the end of the log
	ByHand bool     `json:"by_hand"` // started or ended by hand
	Basis  string   `json:"basis"`   // injected or observed
}

// ObservedSummary is one model's observed failure window: from the start
// of its first failed attempt (timeout, 5xx, 429, connection error) to the
// end of its last, with the figures relative to it.
type ObservedSummary struct {
	Rung              string   `json:"rung"`
	Model             string   `json:"model"`
	Basis             string   `json:"basis"`                // always "observed"
	StartS            float64  `json:"start_s"`              // start of the first failed attempt
	EndS              float64  `json:"end_s"`                // end of the last failed attempt
	FailedAttempts    int      `json:"failed_attempts"`      // attempts that failed, over the whole run
	Attempts          int      `json:"attempts"`             // attempts that ended, over the whole run
	CallsInWindow     int      `json:"calls_in_window"`      // attempts to the model started inside the window
	BreakerFirstOpenS *float64 `json:"breaker_first_open_s"` // the rung's breaker's first open (Fold.FirstOpen): after the injected outage's start, else after start_s
	BackS             *float64 `json:"back_s"`               // first email the rung served after end_s, relative to it
}

// BreakerSummary is a breaker's settings in the summary.
type BreakerSummary struct {
	Rule          string  `json:"rule"`
	Consecutive   bool    `json:"consecutive"`
	Failures      int     `json:"failures"`
	WindowS       float64 `json:"window_s"`
	CooldownS     float64 `json:"cooldown_s"`
	ProbeTimeoutS float64 `json:"probe_timeout_s"`
}

// RungSummary is one rung's settings in the summary.
type RungSummary struct {
	Name       string          `json:"name"`
	Model      string          `json:"model"`
	TimeLimitS float64         `json:"time_limit_s"` // 0: none
	Retries    int             `json:"retries"`
	Breaker    *BreakerSummary `json:"breaker"` // null: no breaker
}

// PolicySummary is the full policy a run used.
type PolicySummary struct {
	Name           string        `json:"name"`
	TimeLimitScope string        `json:"time_limit_scope"`
	Canned         bool          `json:"canned"`
	Rungs          []RungSummary `json:"rungs"`
}

// Summary is the run summary: the same object `drill run --json` prints, a
// journal's last line holds and `drill replay --json` recomputes. Every
// key is documented in docs/keys.md; a key path such as "served.error" or
// "p95_wait_outage_s" names one figure, stably.
type Summary struct {
	Outage string `json:"outage"`
	// OutageName is the drill file's name for the outage when it is not
	// its kind (two outages of one kind in one file); see OutageLabel.
	OutageName string `json:"outage_name,omitempty"`
	Policy     string `json:"policy"`
	// Status is completed, interrupted, aborted or failed.
	Status string `json:"status"`
	// Safeguard names the safeguard that aborted the run (the spend limit,
	// a drill file's abort condition); empty when the run was not aborted
	// or its time ceiling aborted it.
	Safeguard      string `json:"safeguard,omitempty"`
	Emails         int    `json:"emails"`
	EmailsSent     int    `json:"emails_sent"`
	EmailsAnswered int    `json:"emails_answered"`
	NotSent        int    `json:"not_sent"`
	NotSentReason  string `json:"not_sent_reason"`
	// NeverAnswered is the emails sent that the chain never finished:
	// cut off by the run's end, or still in flight in a log without its
	// end. Rejected emails are counted apart.
	NeverAnswered int `json:"never_answered"`
	// Rejected counts the emails the worker pool turned away
	// (served.rejected, 0 without a pool): not answered, and not in
	// quality's denominator.
	Rejected int `json:"rejected"`
	// CutOff counts the emails still running when the run was stopped,
	// aborted or reached its ceiling (served.cancelled): not answered, not
	// errors, not in quality.
	CutOff int    `json:"cut_off"`
	Served Served `json:"served"`
	// All4Right is the share of the emails answered (EmailsAnswered) with
	// all four fields right (canned replies and errors count as wrong;
	// rejected and cut-off emails are not answered).
	All4Right     float64            `json:"all4_right"`
	All4RightCI95 [2]float64         `json:"all4_right_ci95"`
	FieldsRight   map[string]float64 `json:"fields_right"`

	MedianWaitOutageS   *float64 `json:"median_wait_outage_s"`
	P95WaitOutageS      *float64 `json:"p95_wait_outage_s"`
	WaitsOutage         int      `json:"waits_outage"`
	Followed            Followed `json:"followed"`
	CallsToBrokenOutage int      `json:"calls_to_broken_outage"`
	BreakerFirstOpenS   *float64 `json:"breaker_first_open_s"`
	BreakerOpens        int      `json:"breaker_opens"`
	PrimaryBackS        *float64 `json:"primary_back_s"`

	OutageBasis         string            `json:"outage_basis"`
	OutageWindows       []WindowSummary   `json:"outage_windows"`
	ManualOutageWindows []WindowSummary   `json:"manual_outage_windows"`
	Observed            []ObservedSummary `json:"observed"`

	TimeLimitScope string            `json:"time_limit_scope"`
	PolicySettings PolicySummary     `json:"policy_settings"`
	Overrides      map[string]string `json:"overrides"`
	Rate           float64           `json:"rate"`
	Seed           int64             `json:"seed"`
	CeilingS       float64           `json:"ceiling_s"`
	WallS          float64           `json:"wall_s"`
	// HedgedCalls counts rung calls started as a hedge (--hedge-after);
	// omitted when 0.
	HedgedCalls int `json:"hedged_calls,omitempty"`
	// Unscored counts the emails answered without a right answer (a
	// team's emails without truth): quality is over the others.
	Unscored int `json:"unscored"`
	// Clock is real or virtual: the clock WallS and every offset were
	// measured on.
	Clock string `json:"clock"`
	// Tokens and Cost are every attempt's tokens and their cost by the
	// run's price table (cost.go).
	Tokens TokenSummary `json:"tokens"`
	Cost   CostSummary  `json:"cost"`

	// The prediction the run logged before it started (predicted.go),
	// beside the measured figures: ranges [low, high] in seconds from the
	// outage's start, null for never or when nothing was predicted.
	PredictedFailureS      *[2]float64 `json:"predicted_failure_s"`
	PredictedNthFailureS   *[2]float64 `json:"predicted_nth_failure_s"`
	PredictedFirstOpenS    *[2]float64 `json:"predicted_first_open_s"`
	PredictedMayNeverOpen  bool        `json:"predicted_may_never_open"`
	PredictedWorstWaitS    *[2]float64 `json:"predicted_worst_wait_s"`
	PredictedCallsToBroken *[2]float64 `json:"predicted_calls_to_broken"`
	// PredictedNote says why nothing was predicted; empty when predicted.
	PredictedNote string `json:"predicted_note"`

	// Alerts are the alerts received from the team's Alertmanager
	// (--alert-listen), by alertname (alerts.go); omitted when none came.
	Alerts map[string]AlertSummary `json:"alert,omitempty"`
	// AlertsDropped counts the alerts the receiver did not log because
	// they went past its bounds (a flood); omitted when none was dropped.
	AlertsDropped int `json:"alerts_dropped,omitempty"`

	// Classes are the figures of each class of emails in a run with
	// routes, by class (classes.go); omitted without routes. Classifier
	// is how well the routes classified the emails.
	Classes    map[string]ClassSummary `json:"classes,omitempty"`
	Classifier *ClassifierSummary      `json:"classifier,omitempty"`

	// Baseline is the same drill played with the baseline policy, beside
	// the live figures (baseline.go); omitted when no baseline was played
	// (--baseline none, a replayed journal).
	Baseline *BaselineSummary `json:"baseline,omitempty"`

	// MaxInFlight is the worker pool's size (--max-in-flight) and
	// InFlight what was in flight (inflight.go); both omitted for a run
	// without a pool, whose summary stays as it was before pools existed.
	MaxInFlight int              `json:"max_in_flight,omitempty"`
	InFlight    *InFlightSummary `json:"in_flight,omitempty"`
}

// waitsIn returns the waits (seconds) of the emails sent inside ws whose
// wait counts (hasWait), in the order they were sent.
func (f *Fold) waitsIn(ws []Window) []float64 {
	var out []float64
	for _, id := range f.order {
		r := f.emails[id]
		if r.hasWait() && inAny(ws, r.Sent) {
			out = append(out, r.Result.Wait.Seconds())
		}
	}
	return out
}

// hasWait reports whether the email's wait is one the wait figures count:
// it was answered (an email cancelled by the end of the run has no real
// wait), and not rejected at once by the worker pool (counted in
// served.rejected), whose zero wait would make a starved service look fast.
func (r *EmailRecord) hasWait() bool { return r.Answered }

// WaitsOutage returns the waits (seconds) of emails sent during the outage
// basis's windows and answered so far.
func (f *Fold) WaitsOutage() []float64 {
	_, ws := f.Basis()
	return f.waitsIn(ws)
}

// backAfter is the first email rung served at or after end, relative to end.
// It scans the rung's done offsets (8 bytes an email, kept in log order),
// not the email records.
func (f *Fold) backAfter(rung string, end time.Duration) *time.Duration {
	best, found := time.Duration(0), false
	for _, at := range f.doneBy[rung] {
		if d := at - end; at >= end && (!found || d < best) {
			best, found = d, true
		}
	}
	if !found {
		return nil
	}
	return &best
}

// OutageLabel is the run's outage as views name it (a table's row, a
// history's group): the drill file's name for it, else its kind.
func (s Summary) OutageLabel() string { return event.OutageLabel(s.Outage, s.OutageName) }

// Summary computes the run summary from what has been folded so far.
func (f *Fold) Summary() Summary {
	info := f.Info
	s := Summary{
		Outage:              f.OutageKind(),
		OutageName:          info.OutageName,
		Policy:              info.Policy,
		Status:              f.Status(),
		Safeguard:           f.Safeguard(),
		Emails:              info.Emails,
		EmailsSent:          len(f.order),
		EmailsAnswered:      f.served.Answered(),
		NotSentReason:       f.end.NotSentReason,
		Served:              f.served,
		CallsToBrokenOutage: f.CallsToBroken(),
		BreakerOpens:        f.Breaker(f.Target()).Opens,
		TimeLimitScope:      info.TimeLimitScope,
		PolicySettings:      policySummary(info),
		Overrides:           map[string]string{},
		Rate:                info.Rate,
		Seed:                info.Seed,
		CeilingS:            round(info.Ceiling.Seconds(), 3),
		WallS:               round(f.last.Seconds(), 3),
		HedgedCalls:         f.hedged,
		Clock:               f.Clock(),
		Unscored:            f.unscored,
		FieldsRight:         map[string]float64{},
		OutageWindows:       []WindowSummary{},
		ManualOutageWindows: []WindowSummary{},
		Observed:            []ObservedSummary{},
	}
	maps.Copy(s.Overrides, info.Overrides)
	s.Tokens, s.Cost = f.cost.summary()
	s.Cost.MaxSpend = info.MaxSpend
	f.predictedInto(&s)
	f.countsInto(&s)
	f.qualityInto(&s)

	basis, ws := f.Basis()
	s.OutageBasis = basis
	f.classesInto(&s, ws)
	s.Alerts = f.alertSummaries(ws)
	s.AlertsDropped = f.droppedAlerts
	if info.MaxInFlight > 0 {
		in := f.inFlightSummary(ws)
		s.MaxInFlight, s.InFlight = info.MaxInFlight, &in
	}
	if waits := f.waitsIn(ws); len(waits) > 0 {
		sort.Float64s(waits)
		s.MedianWaitOutageS = ptr(round(Quantile(waits, 0.5), 3))
		s.P95WaitOutageS = ptr(round(Quantile(waits, 0.95), 3))
		s.WaitsOutage = len(waits)
	}
	s.Followed = f.followed(info.Follow)
	if first := f.FirstOpen(f.Target()); first != nil {
		s.BreakerFirstOpenS = ptr(round(first.Seconds(), 3))
	}
	if n := len(ws); n > 0 && ws[n-1].To >= 0 {
		if back := f.backAfter(event.ServedPrimary, ws[n-1].To); back != nil {
			s.PrimaryBackS = ptr(round(back.Seconds(), 3))
		}
	}
	f.windowsInto(&s)
	return s
}

// countsInto sets the emails not sent (and why), rejected, cut off and
// never answered.
func (f *Fold) countsInto(s *Summary) {
	s.NotSent = max(0, s.Emails-s.EmailsSent)
	if s.NotSent > 0 && s.NotSentReason == "" {
		s.NotSentReason = event.NotSentStopped
		if !f.ended {
			s.NotSentReason = "cut short"
		}
	}
	s.Rejected, s.CutOff = f.served.Rejected, f.served.Cancelled
	s.NeverAnswered = max(0, s.EmailsSent-s.EmailsAnswered-s.Rejected)
}

// qualityInto sets the answers' quality. Quality is over the emails
// answered: an email never sent, turned away by the worker pool or cut off
// by the end of the run says nothing about the models.
func (f *Fold) qualityInto(s *Summary) {
	if n := f.quality.N; n > 0 {
		s.All4Right = round(float64(f.quality.All4)/float64(n), 4)
		for _, name := range FieldNames {
			s.FieldsRight[name] = round(float64(f.quality.Fields[name])/float64(n), 4)
		}
	}
	lo, hi := Wilson(f.quality.All4, f.quality.N)
	s.All4RightCI95 = [2]float64{round(lo, 4), round(hi, 4)}
}

// followed traces the email the run follows (0: none).
func (f *Fold) followed(id int) Followed {
	out := Followed{Email: id}
	r, ok := f.emails[id]
	if !ok || id == 0 {
		return out
	}
	if r.SentKnown {
		out.SentS = ptr(round(r.Sent.Seconds(), 3))
	}
	if r.Done {
		out.WaitS = ptr(round(r.Result.Wait.Seconds(), 3))
		out.ServedBy = r.Result.ServedBy
		if r.Result.Cancelled {
			out.ServedBy = "cancelled"
		}
	}
	return out
}

// windowsInto lists the outage windows (those by hand apart too) and the
// failure windows observed on each rung.
func (f *Fold) windowsInto(s *Summary) {
	for _, w := range f.Windows {
		ws := f.windowSummary(w)
		s.OutageWindows = append(s.OutageWindows, ws)
		if w.ByHand {
			s.ManualOutageWindows = append(s.ManualOutageWindows, ws)
		}
	}
	for _, rung := range slices.Sorted(maps.Keys(f.failures)) {
		if o, ok := f.observedSummary(rung); ok {
			s.Observed = append(s.Observed, o)
		}
	}
}

func (f *Fold) breakerChanges(rung string) []BreakerChange {
	if b := f.breakers[rung]; b != nil {
		return b.Changes
	}
	return nil
}

func (f *Fold) windowSummary(w Window) WindowSummary {
	ws := WindowSummary{Fault: w.Kind, Rung: w.Target, Model: f.Model(w.Target), StartS: round(w.From.Seconds(), 3),
		ByHand: w.ByHand, Basis: w.Basis}
	if w.To >= 0 {
		ws.EndS = ptr(round(w.To.Seconds(), 3))
	}
	return ws
}

func (f *Fold) observedSummary(rung string) (ObservedSummary, bool) {
	w, ok := f.Observed(rung)
	if !ok {
		return ObservedSummary{}, false
	}
	t := f.failures[rung]
	o := ObservedSummary{Rung: rung, Model: f.Model(rung), Basis: BasisObserved,
		StartS: round(w.From.Seconds(), 3), EndS: round(w.To.Seconds(), 3),
		FailedAttempts: t.failed, Attempts: t.attempts, CallsInWindow: f.starts[rung].inWindow()}
	if first := f.FirstOpen(rung); first != nil {
		o.BreakerFirstOpenS = ptr(round(first.Seconds(), 3))
	}
	if back := f.backAfter(rung, w.To); back != nil {
		o.BackS = ptr(round(back.Seconds(), 3))
	}
	return o, true
}

func policySummary(info event.RunInfo) PolicySummary {
	p := PolicySummary{Name: info.Policy, TimeLimitScope: info.TimeLimitScope, Canned: info.Canned, Rungs: []RungSummary{}}
	for _, r := range info.Rungs {
		if r.Name == event.ServedCanned {
			p.Canned = true
			continue
		}
		rs := RungSummary{Name: r.Name, Model: r.Model, TimeLimitS: round(r.TimeLimit.Seconds(), 3), Retries: r.Retries}
		if b := r.Breaker; b != nil {
			rs.Breaker = &BreakerSummary{Rule: b.Rule, Consecutive: b.Consecutive, Failures: b.Failures,
				WindowS: round(b.Window.Seconds(), 3), CooldownS: round(b.Cooldown.Seconds(), 3),
				ProbeTimeoutS: round(b.ProbeTimeout.Seconds(), 3)}
		}
		p.Rungs = append(p.Rungs, rs)
	}
	return p
}

// Quantile returns the q-quantile of sorted values by linear interpolation
// between closest ranks (type 7, as R and NumPy default). It is NaN for no values.
func Quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	pos := q * float64(n-1)
	i := int(math.Floor(pos))
	if i >= n-1 {
		return sorted[n-1]
	}
	if i < 0 {
		return sorted[0]
	}
	frac := pos - float64(i)
	return sorted[i] + frac*(sorted[i+1]-sorted[i])
}

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}

func ptr(x float64) *float64 { return &x }

// EngineOverheads returns, per email done, the wait the drill added on top
// of the model: the email's wait minus the time its HTTP attempts spent
// below the SDK (in the transport: the model's own latency). Sorted.
func EngineOverheads(events []event.Event) []time.Duration {
	inModel := map[int]time.Duration{}
	pairs := attemptPairs{}
	var out []time.Duration
	for _, e := range events {
		switch e.Kind {
		case event.AttemptStart:
			pairs.start(e)
		case event.AttemptEnd:
			started, _ := pairs.end(e)
			inModel[e.Email] += e.At - started
		case event.EmailDone:
			if e.Result != nil {
				out = append(out, e.Result.Wait-inModel[e.Email])
			}
			delete(inModel, e.Email)
		}
	}
	slices.Sort(out)
	return out
}

// Clock is the clock the run's offsets were measured on: event.ClockVirtual
// if the run logged so, else event.ClockReal.
func (f *Fold) Clock() string {
	if f.clock == "" {
		return event.ClockReal
	}
	return f.clock
}

// Median is the median of values, in any order, by Quantile (the mean of
// the middle two for an even count); NaN for none. values is not changed.
func Median(values []float64) float64 {
	return Quantile(slices.Sorted(slices.Values(values)), 0.5)
}

// MedianDuration is the median of durations, in any order, by Quantile;
// 0 for none. ds is not changed.
func MedianDuration(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	xs := make([]float64, len(ds))
	for i, d := range ds {
		xs[i] = float64(d)
	}
	return time.Duration(math.Round(Median(xs)))
}

// DecodeSummary reads a summary as drill wrote it, in any version: a
// summary recorded before the rejected and cut_off keys existed gets them
// from the counts it did hold (served.rejected, served.cancelled), so an
// older journal's recorded summary reads as what its events fold into. (A
// method on Summary would be promoted to every struct that embeds it.)
func DecodeSummary(b []byte) (Summary, error) {
	var s Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return Summary{}, err
	}
	var has struct {
		Rejected *int `json:"rejected"`
		CutOff   *int `json:"cut_off"`
	}
	if err := json.Unmarshal(b, &has); err != nil {
		return Summary{}, err
	}
	if has.Rejected == nil {
		s.Rejected = s.Served.Rejected
	}
	if has.CutOff == nil {
		s.CutOff = s.Served.Cancelled
	}
	return s, nil
}
