package scoring

import (
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

// Served counts emails by who served them.
type Served struct {
	Primary int `json:"primary"`
	Backup  int `json:"backup"`
	Canned  int `json:"canned"`
	// Error counts emails the chain gave up on while the run went on.
	Error int `json:"error"`
	// Cancelled counts emails the end of the run cut off (Ctrl-C, Stop,
	// the ceiling): never answered, and not counted in Error.
	Cancelled int `json:"cancelled"`
	// Rules counts emails the rules rung answered (keyword triage, no
	// model call); omitted when 0.
	Rules int `json:"rules,omitempty"`
	// HandedOver counts emails a route that never takes the backup handed
	// to a person (event.ServedHandedOver); omitted when 0.
	HandedOver int `json:"handed_over,omitempty"`
	// Rejected counts emails the worker pool had no worker for
	// (--max-in-flight); omitted when 0.
	Rejected int `json:"rejected,omitempty"`
}

// Total is the number of emails done: every server, cut off (cancelled)
// and rejected included.
func (s Served) Total() int { return s.Answered() + s.Cancelled + s.Rejected }

// Answered is the number of emails the chain finished with a result of its
// own (primary, backup, canned, rules, handed over, or an error while the
// run went on): every done email but the ones the run's end cut off
// (Cancelled) and the ones the worker pool turned away (Rejected), which
// never reached the chain. Quality is over these.
func (s Served) Answered() int {
	return s.Primary + s.Backup + s.Canned + s.Error + s.Rules + s.HandedOver
}

// Attempt is one HTTP attempt (or a rung passed over) of one email.
type Attempt struct {
	Rung    string
	Model   string
	N       int // SDK retry count; 0 is the first try
	Start   time.Duration
	End     time.Duration
	Ended   bool
	Outcome event.Outcome
	Status  int
	Fault   string
	Breaker string // the state of the rung's breaker when the attempt started; "" for no breaker
	Skipped bool   // the rung was passed over: its breaker was open
	Probe   bool   // the attempt belongs to a half-open probe
}

// EmailRecord is one email's course through the run: when it was sent,
// how it ended and whether its answer was right, computed once here.
type EmailRecord struct {
	ID        int
	Sent      time.Duration
	SentKnown bool // an email_sent event was folded
	Done      bool
	DoneAt    time.Duration
	Result    event.Result // valid when Done
	// Answered is Done, not cut off by the end of the run (cancelled) and
	// not rejected by the worker pool: the chain finished it.
	Answered bool
	// Rejected is true for an email the worker pool turned away: its
	// email_sent said so, or (older journals) its result.
	Rejected bool
	// pooled is true while the email counts in the emails in flight.
	pooled bool
	// Scored is true when the email's right answer is known (and it is Answered).
	Scored bool
	// Truth is the right answer the email_sent event carried; nil if it
	// carried none (an older journal: the built-in set is looked up).
	Truth *emails.Answer
	// Unscored is true for an email sent without a right answer.
	Unscored bool
	// Match is the field-by-field comparison, valid when Scored; all
	// false for canned replies and errors.
	Match Match
	// All4 is true when Scored and all four fields are right.
	All4 bool
	// Attempts lists the email's attempts and skipped rungs, in order,
	// when the fold keeps them (Options.Attempts).
	Attempts []Attempt
	// Streams are the stream_end events of the email's streamed calls
	// (--stream), when the fold keeps attempts.
	Streams []event.Event
	// Version is bumped on every change, so cached renders know they are stale.
	Version int
}

// FieldCounts counts emails and how many had each field, and all four, right.
type FieldCounts struct {
	N      int            // emails scored
	All4   int            // all four fields right
	Fields map[string]int // field name -> right
}

func (c *FieldCounts) add(m Match) {
	if c.Fields == nil {
		c.Fields = map[string]int{}
	}
	c.N++
	for i, name := range FieldNames {
		if m[i] {
			c.Fields[name]++
		}
	}
	if m.All() {
		c.All4++
	}
}

func (f *Fold) record(id int) *EmailRecord {
	r := f.emails[id]
	if r == nil {
		r = &EmailRecord{ID: id}
		f.emails[id] = r
	}
	return r
}

func (f *Fold) sentEmail(e event.Event) {
	r := f.record(e.Email)
	if r.SentKnown {
		return
	}
	r.Sent, r.SentKnown = e.At, true
	r.Truth, r.Unscored, r.Rejected = e.Truth, e.Unscored, e.Rejected
	r.Version++
	f.order = append(f.order, e.Email)
	if !r.Done && !e.Rejected {
		// An email the pool turned away was never in flight.
		r.pooled = true
		f.inflight.emails.set(e.At, 1)
	}
}

// open returns the email's latest unfinished attempt on rung with retry
// count n.
func (r *EmailRecord) open(rung string, n int) *Attempt {
	for i := len(r.Attempts) - 1; i >= 0; i-- {
		a := &r.Attempts[i]
		if a.Rung == rung && a.N == n && !a.Ended && !a.Skipped {
			return a
		}
	}
	return nil
}

func (f *Fold) doneEmail(e event.Event) {
	r := f.record(e.Email)
	if r.Done {
		if !r.Result.Cancelled || e.Result.Cancelled {
			return // the first result counts
		}
		// A cancelled email that another worker of a coordinated fleet
		// took over and finished: its result counts instead.
		f.served.Cancelled--
	}
	res := *e.Result
	r.Done, r.DoneAt, r.Result, r.Version = true, e.At, res, r.Version+1
	if r.pooled {
		r.pooled = false
		f.inflight.emails.set(e.At, -1)
	}
	f.served.add(res)
	if res.ServedBy == event.ServedRejected && !res.Cancelled {
		// Turned away before any model call: counted apart, not answered,
		// and left out of quality (Served.Rejected).
		r.Rejected = true
		return
	}
	if res.Cancelled {
		return
	}
	f.doneBy[res.ServedBy] = append(f.doneBy[res.ServedBy], e.At)
	r.Answered = true
	truth, ok := f.truthOf(r)
	if !ok {
		f.unscored++
		return
	}
	r.Scored = true
	if res.Answer != nil {
		r.Match = Compare(*res.Answer, truth)
	}
	r.All4 = r.Match.All()
	f.quality.add(r.Match)
	c := f.byServed[res.ServedBy]
	if c == nil {
		c = &FieldCounts{}
		f.byServed[res.ServedBy] = c
	}
	c.add(r.Match)
}

// add counts one email's result.
func (s *Served) add(res event.Result) {
	switch {
	case res.Cancelled:
		s.Cancelled++
	case res.ServedBy == event.ServedPrimary:
		s.Primary++
	case res.ServedBy == event.ServedBackup:
		s.Backup++
	case res.ServedBy == event.ServedCanned:
		s.Canned++
	case res.ServedBy == event.ServedRules:
		s.Rules++
	case res.ServedBy == event.ServedHandedOver:
		s.HandedOver++
	case res.ServedBy == event.ServedRejected:
		s.Rejected++
	default:
		s.Error++
	}
}

// Served is the count of emails by who served them so far.
func (f *Fold) Served() Served { return f.served }

// Quality is the all-fields and per-field tally of every email answered so
// far (emails cut off by the run's end or rejected by the worker pool are
// not answered).
func (f *Fold) Quality() FieldCounts { return f.quality }

// QualityBy is the tally of the emails one server (primary, backup, canned,
// error) answered.
func (f *Fold) QualityBy(servedBy string) FieldCounts {
	if c := f.byServed[servedBy]; c != nil {
		return *c
	}
	return FieldCounts{Fields: map[string]int{}}
}

// Email returns an email's record, if it was sent or done.
func (f *Fold) Email(id int) (*EmailRecord, bool) {
	r, ok := f.emails[id]
	return r, ok
}

// Result returns an email's result, if it is done.
func (f *Fold) Result(id int) (event.Result, bool) {
	if r := f.emails[id]; r != nil && r.Done {
		return r.Result, true
	}
	return event.Result{}, false
}

// SentAt returns when an email was sent, if it was.
func (f *Fold) SentAt(id int) (time.Duration, bool) {
	if r := f.emails[id]; r != nil && r.SentKnown {
		return r.Sent, true
	}
	return 0, false
}

// Sent is the number of emails sent so far.
func (f *Fold) Sent() int { return len(f.order) }

// SentOrder returns the numbers of the emails sent so far, in the order
// they were sent. The slice is the fold's own: do not modify it.
func (f *Fold) SentOrder() []int { return f.order }

// truthFunc looks up an email's right answer.
type truthFunc func(id int) (emails.Email, bool)

// truthOf is an email's right answer: the one its email_sent event carried,
// else (journals recorded before events carried it) the built-in set's.
func (f *Fold) truthOf(r *EmailRecord) (emails.Answer, bool) {
	switch {
	case r.Unscored:
		return emails.Answer{}, false
	case r.Truth != nil:
		return *r.Truth, true
	}
	e, ok := f.truth(r.ID)
	return e.Truth, ok
}

// Unscored counts the emails answered whose right answer is unknown.
func (f *Fold) Unscored() int { return f.unscored }
