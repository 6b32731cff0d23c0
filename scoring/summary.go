package scoring

import (
	"maps"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

// Served counts emails by who served them.
type Served struct {
	Primary int `json:"primary"`
	Backup  int `json:"backup"`
	Canned  int `json:"canned"`
	Error   int `json:"error"`
}

// Total is the number of emails accounted for.
func (s Served) Total() int { return s.Primary + s.Backup + s.Canned + s.Error }

// Followed is one email traced through the run (the chapter's Marcus).
type Followed struct {
	Email    int      `json:"email"`
	SentS    *float64 `json:"sent_s"`    // null if never sent
	WaitS    *float64 `json:"wait_s"`    // null if never done
	ServedBy string   `json:"served_by"` // empty if never done
}

// Summary is the run summary: the same object `drill run --json` prints, a
// journal's last line holds and `drill replay --json` recomputes.
type Summary struct {
	Outage              string     `json:"outage"`
	Policy              string     `json:"policy"`
	Emails              int        `json:"emails"`
	Served              Served     `json:"served"`
	All4Right           float64    `json:"all4_right"`
	All4RightCI95       [2]float64 `json:"all4_right_ci95"`
	MedianWaitOutageS   *float64   `json:"median_wait_outage_s"`
	P95WaitOutageS      *float64   `json:"p95_wait_outage_s"`
	Followed            Followed   `json:"followed"`
	CallsToBrokenOutage int        `json:"calls_to_broken_outage"`
	BreakerFirstOpenS   *float64   `json:"breaker_first_open_s"`
	BreakerOpens        int        `json:"breaker_opens"`
	PrimaryBackS        *float64   `json:"primary_back_s"`
	TimeLimitScope      string     `json:"time_limit_scope"`
	WallS               float64    `json:"wall_s"`
	Clock               string     `json:"clock"` // real or virtual: the clock WallS and every offset were measured on
}

// Window is one outage window, as offsets from the run's start. An open
// window (still active) has End < 0.
type Window struct {
	Start, End time.Duration
	Fault      string
	Target     string
}

func (w Window) contains(at time.Duration) bool {
	return at >= w.Start && (w.End < 0 || at < w.End)
}

// FieldCounts counts emails and how many had each field, and all four, right.
type FieldCounts struct {
	N      int            // emails scored
	All4   int            // all four fields right
	Fields map[string]int // field name -> right
}

func (c *FieldCounts) add(got *emails.Answer, truth emails.Answer) {
	if c.Fields == nil {
		c.Fields = map[string]int{}
	}
	c.N++
	if got == nil {
		return
	}
	m := Compare(*got, truth)
	for i, name := range FieldNames {
		if m[i] {
			c.Fields[name]++
		}
	}
	if m.All() {
		c.All4++
	}
}

// Fold folds a run's events, in order, into every figure drill shows: the
// live dashboard, drill run, replay and reports all use it, so a number
// means the same everywhere. Memory grows with the number of emails, not
// events. A Fold is not safe for concurrent use.
type Fold struct {
	Info     event.RunInfo
	Windows  []Window
	sent     map[int]time.Duration
	results  map[int]event.Result
	served   Served
	quality  FieldCounts
	byServed map[string]*FieldCounts
	waitsOut []float64 // waits of emails sent during an outage, seconds
	broken   int
	breakers map[string]*BreakerTally
	calls    map[string]*PerSecond // rung -> attempts started per second
	retries  map[string]*PerSecond // rung -> retries (attempt > 0) started per second
	back     *time.Duration
	failed   map[string]map[event.Outcome]int // rung -> outcome -> calls that did not answer
	last     time.Duration
	ended    string
	clock    string // the RunClock event's detail; "" means real
	truth    func(id int) (emails.Email, bool)
}

// NewFold returns an empty fold that scores answers against the built-in
// data set.
func NewFold() *Fold {
	return &Fold{
		sent:     map[int]time.Duration{},
		results:  map[int]event.Result{},
		byServed: map[string]*FieldCounts{},
		failed:   map[string]map[event.Outcome]int{},
		breakers: map[string]*BreakerTally{},
		calls:    map[string]*PerSecond{},
		retries:  map[string]*PerSecond{},
		truth:    emails.ByID,
	}
}

// Summarize folds a whole run.
func Summarize(events []event.Event) Summary {
	f := NewFold()
	for _, e := range events {
		f.Add(e)
	}
	return f.Summary()
}

// Add folds one event. Events must come in log order.
func (f *Fold) Add(e event.Event) {
	f.last = e.At
	switch e.Kind {
	case event.RunStart:
		if e.Run != nil {
			f.Info = *e.Run
		}
	case event.OutageStart:
		// A scheduled window starts exactly when the injector starts it;
		// the event is logged a moment later by a timer.
		start := e.At
		if e.Detail != event.ByHand && f.Info.OutageToS > f.Info.OutageFromS {
			start = seconds(f.Info.OutageFromS)
		}
		f.Windows = append(f.Windows, Window{Start: start, End: -1, Fault: e.Fault, Target: e.Rung})
	case event.OutageEnd:
		end := e.At
		if e.Detail != event.ByHand && f.Info.OutageToS > f.Info.OutageFromS {
			end = seconds(f.Info.OutageToS)
		}
		if n := len(f.Windows); n > 0 && f.Windows[n-1].End < 0 {
			f.Windows[n-1].End = end
		}
	case event.EmailSent:
		f.sent[e.Email] = e.At
	case event.AttemptStart:
		tally(f.calls, e.Rung).add(e.At)
		if e.Attempt > 0 {
			tally(f.retries, e.Rung).add(e.At)
		}
	case event.Fault:
		// The injector faults exactly the attempts to the broken model
		// that start inside an outage window.
		f.broken++
	case event.BreakerChange:
		if e.Breaker == nil || e.Breaker.To != "open" {
			break
		}
		b := f.breakers[e.Breaker.Name]
		if b == nil {
			b = &BreakerTally{}
			f.breakers[e.Breaker.Name] = b
		}
		b.Opens++
		if b.FirstOpen == nil && len(f.Windows) > 0 && e.At >= f.Windows[0].Start {
			d := e.At - f.Windows[0].Start
			b.FirstOpen = &d
		}
	case event.RungEnd, event.RungSkipped:
		if e.Outcome != event.OK {
			if f.failed[e.Rung] == nil {
				f.failed[e.Rung] = map[event.Outcome]int{}
			}
			f.failed[e.Rung][e.Outcome]++
		}
	case event.EmailDone:
		if e.Result != nil {
			f.done(e)
		}
	case event.RunEnd:
		f.ended = e.Detail
	case event.RunClock:
		f.clock = e.Detail
	}
}

// Target is the rung whose model the outage breaks.
func (f *Fold) Target() string {
	if f.Info.Target != "" {
		return f.Info.Target
	}
	return event.ServedPrimary
}

func (f *Fold) inOutage(at time.Duration) bool {
	for _, w := range f.Windows {
		if w.contains(at) {
			return true
		}
	}
	return false
}

func (f *Fold) done(e event.Event) {
	r := *e.Result
	if _, dup := f.results[e.Email]; dup {
		return
	}
	f.results[e.Email] = r
	switch r.ServedBy {
	case event.ServedPrimary:
		f.served.Primary++
		if n := len(f.Windows); f.back == nil && n > 0 && f.Windows[n-1].End >= 0 && e.At >= f.Windows[n-1].End {
			d := e.At - f.Windows[n-1].End
			f.back = &d
		}
	case event.ServedBackup:
		f.served.Backup++
	case event.ServedCanned:
		f.served.Canned++
	default:
		f.served.Error++
	}
	if truth, ok := f.truth(e.Email); ok {
		f.quality.add(r.Answer, truth.Truth)
		c := f.byServed[r.ServedBy]
		if c == nil {
			c = &FieldCounts{}
			f.byServed[r.ServedBy] = c
		}
		c.add(r.Answer, truth.Truth)
	}
	if sent, ok := f.sent[e.Email]; ok && f.inOutage(sent) && !r.Cancelled {
		f.waitsOut = append(f.waitsOut, r.Wait.Seconds())
	}
}

// Served is the count of emails by who served them so far.
func (f *Fold) Served() Served { return f.served }

// Quality is the all-fields and per-field tally of every email done so far.
func (f *Fold) Quality() FieldCounts { return f.quality }

// QualityBy is the tally of the emails one server (primary, backup, canned,
// error) answered.
func (f *Fold) QualityBy(servedBy string) FieldCounts {
	if c := f.byServed[servedBy]; c != nil {
		return *c
	}
	return FieldCounts{Fields: map[string]int{}}
}

// Result returns an email's result, if it is done.
func (f *Fold) Result(id int) (event.Result, bool) {
	r, ok := f.results[id]
	return r, ok
}

// SentAt returns when an email was sent, if it was.
func (f *Fold) SentAt(id int) (time.Duration, bool) {
	at, ok := f.sent[id]
	return at, ok
}

// CallsToBroken counts attempts to the broken model that started during an outage.
func (f *Fold) CallsToBroken() int { return f.broken }

// WaitsOutage returns the waits (seconds) of emails sent during an outage
// and done so far, in the order they finished. Emails cancelled by the end
// of the run (Ctrl-C, the ceiling) have no real wait and are left out.
func (f *Fold) WaitsOutage() []float64 { return f.waitsOut }

// BreakerTally is what a fold knows of one breaker: how often it opened and
// when it first opened after the outage started.
type BreakerTally struct {
	Opens     int
	FirstOpen *time.Duration // after the first outage window's start; nil if never
}

// Breaker returns the tally of the breaker guarding rung.
func (f *Fold) Breaker(rung string) BreakerTally {
	if b := f.breakers[rung]; b != nil {
		return *b
	}
	return BreakerTally{}
}

// PerSecond counts events per whole second of a run: [s] is second s.
type PerSecond []int

func (p *PerSecond) add(at time.Duration) {
	sec := int(at / time.Second)
	for len(*p) <= sec {
		*p = append(*p, 0)
	}
	(*p)[sec]++
}

// AttemptsPerSecond counts the HTTP attempts to rung started in each second.
func (f *Fold) AttemptsPerSecond(rung string) PerSecond { return perSecond(f.calls, rung) }

// RetriesPerSecond counts the SDK retries to rung started in each second.
func (f *Fold) RetriesPerSecond(rung string) PerSecond { return perSecond(f.retries, rung) }

func perSecond(m map[string]*PerSecond, rung string) PerSecond {
	if p := m[rung]; p != nil {
		return *p
	}
	return nil
}

// Sent is the number of emails sent so far.
func (f *Fold) Sent() int { return len(f.sent) }

// Emails returns the numbers of the emails sent so far, ascending.
func (f *Fold) Emails() []int { return slices.Sorted(maps.Keys(f.sent)) }

// FailedCalls counts, per rung, the calls that did not answer, by outcome
// (breaker_open for a rung skipped by its breaker).
func (f *Fold) FailedCalls() map[string]map[event.Outcome]int { return f.failed }

// Ended is how the run ended (run_end's detail), or "" while it runs.
func (f *Fold) Ended() string { return f.ended }

// Clock is the clock the run's offsets were measured on: event.ClockVirtual
// if the run logged so, else event.ClockReal.
func (f *Fold) Clock() string {
	if f.clock == "" {
		return event.ClockReal
	}
	return f.clock
}

// Elapsed is the offset of the last event folded.
func (f *Fold) Elapsed() time.Duration { return f.last }

// Summary computes the run summary from what has been folded so far.
func (f *Fold) Summary() Summary {
	s := Summary{
		Outage:              f.Info.Outage,
		Policy:              f.Info.Policy,
		Emails:              f.Info.Emails,
		Served:              f.served,
		CallsToBrokenOutage: f.broken,
		BreakerOpens:        f.Breaker(f.Target()).Opens,
		TimeLimitScope:      f.Info.TimeLimitScope,
		WallS:               round(f.last.Seconds(), 3),
		Clock:               f.Clock(),
	}
	// Every email of the run counts: one never answered (a run cut short)
	// counts as wrong, as do canned replies and errors.
	if n := max(s.Emails, f.quality.N); n > 0 {
		s.All4Right = round(float64(f.quality.All4)/float64(n), 4)
		lo, hi := Wilson(f.quality.All4, n)
		s.All4RightCI95 = [2]float64{round(lo, 4), round(hi, 4)}
	}
	if len(f.waitsOut) > 0 {
		ws := append([]float64(nil), f.waitsOut...)
		sort.Float64s(ws)
		s.MedianWaitOutageS = ptr(round(Quantile(ws, 0.5), 3))
		s.P95WaitOutageS = ptr(round(Quantile(ws, 0.95), 3))
	}
	s.Followed.Email = f.Info.Follow
	if at, ok := f.sent[f.Info.Follow]; ok {
		s.Followed.SentS = ptr(round(at.Seconds(), 3))
	}
	if r, ok := f.results[f.Info.Follow]; ok {
		s.Followed.WaitS = ptr(round(r.Wait.Seconds(), 3))
		s.Followed.ServedBy = r.ServedBy
	}
	if first := f.Breaker(f.Target()).FirstOpen; first != nil {
		s.BreakerFirstOpenS = ptr(round(first.Seconds(), 3))
	}
	if f.back != nil {
		s.PrimaryBackS = ptr(round(f.back.Seconds(), 3))
	}
	return s
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
	frac := pos - float64(i)
	return sorted[i] + frac*(sorted[i+1]-sorted[i])
}

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}

func ptr(x float64) *float64 { return &x }

func tally(m map[string]*PerSecond, rung string) *PerSecond {
	p := m[rung]
	if p == nil {
		p = &PerSecond{}
		m[rung] = p
	}
	return p
}

func seconds(s float64) time.Duration { return time.Duration(math.Round(s * float64(time.Second))) }

// EngineOverheads returns, per email done, the wait the drill added on top
// of the model: the email's wait minus the time its HTTP attempts spent
// below the SDK (in the transport: the model's own latency). Sorted.
func EngineOverheads(events []event.Event) []time.Duration {
	type attempt struct {
		email   int
		rung    string
		attempt int
	}
	inModel := map[int]time.Duration{}
	started := map[attempt]time.Duration{}
	var out []time.Duration
	for _, e := range events {
		switch e.Kind {
		case event.AttemptStart:
			started[attempt{e.Email, e.Rung, e.Attempt}] = e.At
		case event.AttemptEnd:
			k := attempt{e.Email, e.Rung, e.Attempt}
			inModel[e.Email] += e.At - started[k]
			delete(started, k)
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
