package predict

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/format"
)

// attemptBounds are the longest an attempt of each outcome lasts under an
// incident's faults: one that fails and is tried again (a refusal, a
// silent wait cut by a limit, a stream the stream-rate check cut) and one
// that ends the call (an answer, slow or not, or a stream an attempt
// deadline cut), with the fault kinds behind each.
type attemptBounds struct {
	failing, ending float64
	// hint is the longest Retry-After a refusal sends, in seconds: the
	// SDK may wait it before each retry instead of its own backoff.
	hint float64
	why  []string
}

// refused is a refusal at once, with its Retry-After (0: none).
func (b *attemptBounds) refused(retryAfter time.Duration, class string) {
	b.fail(0, class+" attempts refused at once")
	b.hint = max(b.hint, retryAfter.Seconds())
}

func (b *attemptBounds) fail(v float64, why string) {
	if v > b.failing {
		b.failing = v
	}
	b.why = append(b.why, why)
}

func (b *attemptBounds) end(v float64, why string) {
	if v > b.ending {
		b.ending = v
	}
	b.why = append(b.why, why)
}

// capped is v cut by the attempt deadline, if the policy sets one.
func (c chatCalc) capped(v float64) float64 {
	if ad := c.p.AttemptDeadline.Seconds(); ad > 0 && ad < v {
		return ad
	}
	return v
}

// up is a bound in seconds as the tables print it: rounded up to a tenth.
func up(v float64) string {
	if b := secs(v); b != nil {
		return format.Secs(*b)
	}
	return "unbounded"
}

// bounds reads the faults of the classes prof draws (on either model, on a
// normal day or in the incident) as attempt bounds.
func (c chatCalc) bounds(prof chat.Profile) attemptBounds {
	var b attemptBounds
	normal := c.capped(c.in.HeadersS + float64(c.tokens())/c.in.ModelTokensPerS)
	b.end(normal, "answers up to "+up(normal))
	silent := math.Inf(1)
	if rt := c.p.ReadTimeout.Seconds(); rt > 0 {
		silent = rt
	}
	silent = c.capped(silent)
	for _, class := range chat.Classes() {
		if !draws(prof, class) {
			continue
		}
		spec := prof.Faults[class]
		f, err := inject.NewFault(spec)
		if err != nil {
			continue // Validate refused it: the run cannot start
		}
		switch f := f.(type) {
		case *inject.Trickle:
			slow := c.in.HeadersS + float64(c.tokens())/f.TokensPerS
			if f.Seconds > 0 {
				slow = c.in.HeadersS + f.Seconds + f.Spread
			}
			if c.p.MinTokensPerS > f.TokensPerS {
				b.fail(c.aborted(), fmt.Sprintf("%s calls cut by the stream-rate check at %s", class, up(c.aborted())))
			} else {
				b.end(c.capped(slow), fmt.Sprintf("%s calls up to %s", class, up(c.capped(slow))))
			}
		case *inject.Slow:
			late := c.capped(normal + (f.Delay + f.Jitter).Seconds())
			b.end(late, fmt.Sprintf("%s calls up to %s", class, up(late)))
		case *inject.Hang:
			b.fail(silent, fmt.Sprintf("%s calls silent for %s", class, up(silent)))
		case *inject.Stall:
			stalled := c.capped(c.in.HeadersS + silent)
			b.fail(stalled, fmt.Sprintf("%s calls stalled until %s", class, up(stalled)))
		case *inject.Overloaded:
			b.refused(f.RetryAfter, class)
		case *inject.RateLimit:
			b.refused(f.RetryAfter, class)
		case *inject.Busy:
			b.refused(0, class)
		default:
			// malformed-tool-call, loop, malformed: an answer at the
			// model's pace, which the good answers bound.
		}
	}
	return b
}

// draws reports whether prof ever draws class.
func draws(prof chat.Profile, class string) bool {
	rate := func(r chat.Rates) float64 {
		switch class {
		case chat.ClassOverloaded:
			return r.Overloaded
		case chat.ClassSlow:
			return r.Slow
		case chat.ClassMalformed:
			return r.Malformed
		}
		return r.Loop
	}
	for _, m := range []chat.ModelProfile{prof.Primary, prof.Fallback} {
		if rate(m.Normal) > 0 || (m.Incident != nil && rate(*m.Incident) > 0) {
			return true
		}
	}
	return false
}

// incident is a conversation against the incident's own mix of faults:
// any attempt may draw any of its classes, so one call's worst is its
// retries failing as slowly as a failing attempt can, with the SDK's
// backoff between them, and its last attempt the slowest of all; the
// conversation is the turn limit's calls, or the time budget and one more
// call.
func (c chatCalc) incident(kind string, prof chat.Profile) ChatCase {
	b := c.bounds(prof)
	last := math.Max(b.failing, b.ending)
	call := c.backoff + (c.attempts-1)*(b.failing+b.hint) + last
	_, conv, budgeted := c.turnsOf(call)
	stop := fmt.Sprintf("incident %s: any attempt may meet any of its faults (%s); %d turns of up to %s", kind, strings.Join(b.why, ", "), c.p.TurnLimit, up(call))
	if budgeted {
		stop = fmt.Sprintf("incident %s: any attempt may meet any of its faults (%s); the time budget, then one more call of up to %s", kind, strings.Join(b.why, ", "), up(call))
	}
	out := ChatCase{Provider: ProviderIncident, Incident: kind, AttemptS: secs(last), CallS: secs(call), ConversationS: secs(conv), StoppedBy: stop}
	if c.in.Within > 0 {
		out.Within = "yes"
		if out.ConversationS == nil || !c.fits(*out.ConversationS) {
			out.Within = "attempt_deadline, the stream-rate check or a time budget that ends it sooner"
		}
	}
	return out
}
