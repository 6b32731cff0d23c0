package scoring

import (
	"fmt"
	"math"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/format"
)

// Bounds every event of a recorded run must keep, whatever its journal's
// header says. They make a hostile or damaged journal an error naming the
// field instead of a panic or an allocation without limit in the folds
// that read it.
const (
	// MaxOffset is the latest offset (at_ns) an event may have: a week. It is
	// the bound when the run records no ceiling, and caps the one it does:
	// events of a run set to last longer are refused past a week.
	MaxOffset = edge.MaxDuration
	// CeilingGrace is how long after the run's ceiling an event may still be
	// stamped: the run cancels what is in flight at the ceiling and records
	// the last emails and run_end a moment later.
	CeilingGrace = time.Minute
	// BackstepTolerance is how far an event's offset may be earlier than the
	// previous event's. The engine never stamps a step back; the tolerance
	// only forgives rounding in journals edited or produced by other tools.
	BackstepTolerance = time.Millisecond
	// MaxEmails is the most emails a run_start may configure, and the
	// highest email id allowed before the run_start event.
	MaxEmails = 10_000_000
	// MaxAttempt is the highest SDK retry count an attempt may carry: the
	// most retries a run accepts.
	MaxAttempt = edge.MaxRetries
)

// EventRules checks a recorded run's events, one at a time and in log
// order, against the rules of the format: offsets not negative, in time
// order and within the run's ceiling; email ids within the configured
// emails; one run_start; the fields each kind of event must carry. It is a
// fold over the events: each check depends on the ones before it.
type EventRules struct {
	until      time.Duration // latest offset allowed
	untilWhy   string        // why, for errors
	emails     int           // run.emails of the run_start event; 0 before it
	emailsFrom string        // where emails came from, for errors
	prevAt     time.Duration
	prevLine   int
	runStart   int // line of the run_start event, 0 before it
}

// NewEventRules returns the rules for the events of a run whose recorded
// ceiling is ceiling (0: none recorded): events may be stamped up to
// CeilingGrace after it, and never after MaxOffset.
func NewEventRules(ceiling time.Duration) *EventRules {
	r := &EventRules{until: MaxOffset, untilWhy: fmt.Sprintf("the longest run drill reads (%s)", format.GoDuration(MaxOffset))}
	if ceiling > 0 && ceiling < MaxOffset-CeilingGrace {
		r.until = ceiling + CeilingGrace
		r.untilWhy = fmt.Sprintf("the run's ceiling (%s) plus %s", format.GoDuration(ceiling), format.GoDuration(CeilingGrace))
	}
	return r
}

// emailLimit is the highest email id allowed and where it comes from.
func (v *EventRules) emailLimit() (int, string) {
	if v.emails > 0 {
		return v.emails, v.emailsFrom
	}
	return MaxEmails, fmt.Sprintf("the most drill reads (%d)", MaxEmails)
}

// Check validates e, read from line. It returns a description of the first
// rule broken, naming the field, or "".
func (v *EventRules) Check(e event.Event, line int) string {
	switch {
	case e.At < 0:
		return fmt.Sprintf("field \"at_ns\" is %s, negative (offsets count from the run's start)", format.Nanos(e.At))
	case e.At > v.until:
		return fmt.Sprintf("field \"at_ns\" is %s (%s), after %s", format.Nanos(e.At), format.GoDuration(e.At), v.untilWhy)
	case v.prevLine > 0 && e.At < v.prevAt-BackstepTolerance:
		return fmt.Sprintf("field \"at_ns\" is %s, %s before the previous event's (line %d); events must come in time order",
			format.Nanos(e.At), format.GoDuration(v.prevAt-e.At), v.prevLine)
	}
	v.prevAt, v.prevLine = e.At, line

	maxID, from := v.emailLimit()
	switch {
	case e.Email < 0 || e.Email > maxID:
		return fmt.Sprintf("field \"email\" is %d, outside 1..%d (%s)", e.Email, maxID, from)
	case e.Email == 0 && (e.Kind == event.EmailSent || e.Kind == event.EmailDone):
		return fmt.Sprintf("field \"email\" is missing from a %s event", e.Kind)
	case e.Attempt < 0 || e.Attempt > MaxAttempt:
		return fmt.Sprintf("field \"attempt\" is %d, want 0..%d", e.Attempt, MaxAttempt)
	case e.Status != 0 && (e.Status < 100 || e.Status > 999):
		// Any three digits: Go's HTTP client takes them, and drill proxy
		// records what its upstream sent.
		return fmt.Sprintf("field \"status\" is %d, not an HTTP status (100..999)", e.Status)
	}

	switch e.Kind {
	case event.RunStart:
		return v.checkRunStart(e, line)
	case event.BreakerChange:
		if e.Breaker == nil {
			return "field \"breaker\" is missing from a breaker event"
		}
	case event.EmailDone:
		return checkResult(e)
	case event.ConversationStart, event.ModelAttempt, event.ModelCall, event.ToolCall, event.ConversationHandover, event.ConversationEnd:
		// The chat fold reads the conversation from it.
		if e.Chat == nil {
			return fmt.Sprintf("field \"chat\" is missing from a %s event", e.Kind)
		}
	}
	return ""
}

func (v *EventRules) checkRunStart(e event.Event, line int) string {
	if v.runStart > 0 {
		return fmt.Sprintf("a second run_start event (the first is on line %d)", v.runStart)
	}
	v.runStart = line
	r := e.Run
	if r == nil {
		return "" // nothing configured: the folds fall back to their defaults
	}
	maxOffsetS := MaxOffset.Seconds()
	// A run that sends no emails of its own (drill proxy records the
	// requests of other clients) has neither emails nor a rate.
	noEmails := r.Emails == 0 && r.Rate == 0
	switch {
	case noEmails:
	case r.Emails < 1 || r.Emails > MaxEmails:
		return fmt.Sprintf("field \"run.emails\" is %d, want 1..%d", r.Emails, MaxEmails)
	case !(r.Rate > 0) || math.IsInf(r.Rate, 0):
		return fmt.Sprintf("field \"run.rate\" is %v, want emails per second above 0", r.Rate)
	case !(r.OutageFromS >= 0 && r.OutageFromS <= maxOffsetS):
		return fmt.Sprintf("field \"run.outage_from_s\" is %v, want 0..%v", r.OutageFromS, maxOffsetS)
	case !(r.OutageToS >= 0 && r.OutageToS <= maxOffsetS):
		return fmt.Sprintf("field \"run.outage_to_s\" is %v, want 0..%v", r.OutageToS, maxOffsetS)
	}
	for i, rg := range r.Rungs {
		if rg.TimeLimit < 0 {
			return fmt.Sprintf("field \"run.rungs[%d].time_limit_ns\" is %s, must not be negative", i, format.Nanos(rg.TimeLimit))
		}
		if err := edge.Retries(rg.Retries); err != nil {
			return fmt.Sprintf("field \"run.rungs[%d].retries\" %v", i, err)
		}
	}
	v.emails, v.emailsFrom = r.Emails, fmt.Sprintf("run.emails on line %d", line)
	if r.MaxEmailID > r.Emails {
		if r.MaxEmailID > MaxEmails {
			return fmt.Sprintf("field \"run.max_email_id\" is %d, want at most %d", r.MaxEmailID, MaxEmails)
		}
		v.emails, v.emailsFrom = r.MaxEmailID, fmt.Sprintf("run.max_email_id on line %d", line)
	}
	return ""
}

func checkResult(e event.Event) string {
	r := e.Result
	if r == nil {
		return "field \"result\" is missing from an email_done event"
	}
	switch r.ServedBy {
	case event.ServedPrimary, event.ServedBackup, event.ServedCanned, event.ServedError, event.ServedRules, event.ServedHandedOver, event.ServedRejected:
	default:
		return fmt.Sprintf("field \"result.served_by\" is %q, want primary, backup, canned, error, rules, handed_over or rejected", r.ServedBy)
	}
	if r.Wait < 0 || r.Wait > e.At+BackstepTolerance {
		return fmt.Sprintf("field \"result.wait_ns\" is %s, want 0..at_ns (%s): an email cannot wait longer than the run has lasted",
			format.Nanos(r.Wait), format.Nanos(e.At))
	}
	return ""
}

// HasKind reports whether an event names its kind: a line without one is
// not an event of drill's log, whatever else it holds.
func HasKind(e event.Event) bool { return e.Kind != "" }
