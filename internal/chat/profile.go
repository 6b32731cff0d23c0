package chat

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/suggest"
)

// Rates are the shares of a model's attempts that go wrong, by class.
// They must add up to at most 1; the rest are good.
type Rates struct {
	// Overloaded: the provider refuses the attempt (a 529).
	Overloaded float64 `json:"overloaded" yaml:"overloaded"`
	// Slow: the answer streams at a trickle.
	Slow float64 `json:"slow" yaml:"slow"`
	// Malformed: a tool call whose arguments do not parse.
	Malformed float64 `json:"malformed" yaml:"malformed"`
	// Loop: the model repeats its previous tool call.
	Loop float64 `json:"loop" yaml:"loop"`
}

// of is the rate of class.
func (r Rates) of(class string) float64 {
	switch class {
	case ClassOverloaded:
		return r.Overloaded
	case ClassSlow:
		return r.Slow
	case ClassMalformed:
		return r.Malformed
	case ClassLoop:
		return r.Loop
	}
	return 0
}

// uses reports whether the model's rates ever draw class.
func (m ModelProfile) uses(class string) bool {
	return m.Normal.of(class) > 0 || (m.Incident != nil && m.Incident.of(class) > 0)
}

func (r Rates) total() float64 {
	t := 0.0
	for _, class := range classes {
		t += r.of(class)
	}
	return t
}

// ModelProfile is one model's rates on a normal day and, if set, in the
// incident window.
type ModelProfile struct {
	Normal   Rates  `json:"normal" yaml:"normal"`
	Incident *Rates `json:"incident,omitempty" yaml:"incident"`
}

// Profile is the chat workload's fault profile: per-model rates, the
// incident window, and the transport fault that plays each class.
type Profile struct {
	// Primary and Fallback are the two models' rates.
	Primary  ModelProfile `json:"primary" yaml:"primary"`
	Fallback ModelProfile `json:"fallback" yaml:"fallback"`
	// IncidentFrom and IncidentTo are the incident window, offsets from
	// the run's start: an attempt starting in it draws from Incident.
	IncidentFrom time.Duration `json:"incident_from_ns" yaml:"incident_from"`
	IncidentTo   time.Duration `json:"incident_to_ns" yaml:"incident_to"`
	// Faults are the transport faults that play each class (overloaded,
	// slow, malformed, loop), as inject's catalogue names them.
	Faults map[string]event.FaultSpec `json:"faults" yaml:"faults"`
	// LoopPersists makes a model that repeated a tool call keep repeating
	// it for the rest of the conversation (every attempt drawn good
	// loops), as the write-up's conversation 350 did eight times in a
	// row: its own repeated call in the context it rereads each turn pulls
	// it back. Off, a loop is one attempt's fault and the next call
	// proceeds.
	LoopPersists bool `json:"loop_persists" yaml:"loop_persists"`
}

// The fault classes of a profile, the keys of Profile.Faults.
const (
	ClassOverloaded = "overloaded"
	ClassSlow       = "slow"
	ClassMalformed  = "malformed"
	ClassLoop       = "loop"
)

// classes are the fault classes in the order they are drawn.
var classes = []string{ClassOverloaded, ClassSlow, ClassMalformed, ClassLoop}

// Classes lists the fault classes in the order they are drawn.
func Classes() []string { return slices.Clone(classes) }

// The incident kinds (--incident).
const (
	IncidentMixed            = "mixed"
	IncidentMostlySlow       = "mostly-slow"
	IncidentMostlyOverloaded = "mostly-overloaded"
	IncidentNone             = "none"
)

var incidents = []string{IncidentMixed, IncidentMostlySlow, IncidentMostlyOverloaded, IncidentNone}

// IncidentKinds lists the incident kinds, the default first.
func IncidentKinds() []string { return append([]string(nil), incidents...) }

// The write-up's figures: a normal day's primary, the mixed incident, and
// a fallback worse at valid tool calls and more likely to loop. The two
// other incident kinds are drill's: the same window with the primary's
// trouble mostly slow streams, or mostly refusals.
var (
	normalPrimary    = Rates{Overloaded: 0.01, Slow: 0.01, Malformed: 0.02, Loop: 0.02}
	normalFallback   = Rates{Overloaded: 0.01, Slow: 0.01, Malformed: 0.05, Loop: 0.05}
	incidentMixed    = Rates{Overloaded: 0.40, Slow: 0.20, Malformed: 0.06, Loop: 0.02}
	incidentSlow     = Rates{Overloaded: 0.05, Slow: 0.45, Malformed: 0.06, Loop: 0.02}
	incidentOverload = Rates{Overloaded: 0.60, Slow: 0.05, Malformed: 0.06, Loop: 0.02}
)

// SlowCallSeconds is how long a slow call lasts in the built-in incidents,
// whatever its reply's length: the write-up's "at two tokens a second, one
// slow answer takes about 150 seconds", which its conversation 350's first
// call (150.8 s) and its budget-only run (every conversation that meets a
// slow call runs past two minutes) bear out for tool-call turns too.
const SlowCallSeconds = 150

// The incident window's default offsets: seconds 300 to 600.
const (
	DefaultIncidentFrom = 300 * time.Second
	DefaultIncidentTo   = 600 * time.Second
)

// DefaultFaults are the transport faults that play each class: a 529
// refusal, a stream at 2 tokens a second that lasts SlowCallSeconds
// whatever its length (tool-call turns too), a tool call whose arguments
// do not parse, and the previous tool call repeated.
func DefaultFaults() map[string]event.FaultSpec {
	return map[string]event.FaultSpec{
		ClassOverloaded: {Kind: "overloaded", Params: map[string]string{"status": "529"}},
		ClassSlow:       {Kind: "trickle", Params: map[string]string{"tokens_per_s": "2", "seconds": strconv.Itoa(SlowCallSeconds)}},
		ClassMalformed:  {Kind: "malformed-tool-call"},
		ClassLoop:       {Kind: "loop"},
	}
}

// IncidentProfile returns the profile of an incident kind: the write-up's
// normal day with the incident from 300 s to 600 s.
func IncidentProfile(kind string) (Profile, error) {
	p := Profile{Primary: ModelProfile{Normal: normalPrimary}, Fallback: ModelProfile{Normal: normalFallback},
		IncidentFrom: DefaultIncidentFrom, IncidentTo: DefaultIncidentTo, Faults: DefaultFaults(), LoopPersists: true}
	var r Rates
	switch kind {
	case IncidentMixed, "":
		r = incidentMixed
	case IncidentMostlySlow:
		r = incidentSlow
	case IncidentMostlyOverloaded:
		r = incidentOverload
	case IncidentNone:
		return p, nil
	default:
		return Profile{}, fmt.Errorf("unknown incident %q (valid: %s)%s", kind, strings.Join(incidents, ", "), suggest.DidYouMean(kind, "", incidents))
	}
	p.Primary.Incident = &r
	return p, nil
}

// Validate says what is wrong with p.
func (p Profile) Validate() error {
	check := func(who string, r Rates) error {
		for _, class := range classes {
			if v := r.of(class); v < 0 || v > 1 {
				return fmt.Errorf("profile %s: a rate must be between 0 and 1, got %g", who, v)
			}
		}
		if r.total() > 1+1e-9 {
			return fmt.Errorf("profile %s: the rates add up to %g, more than 1", who, r.total())
		}
		return nil
	}
	for _, m := range []struct {
		name string
		mp   ModelProfile
	}{{"primary", p.Primary}, {"fallback", p.Fallback}} {
		if err := check(m.name+" normal", m.mp.Normal); err != nil {
			return err
		}
		if m.mp.Incident != nil {
			if err := check(m.name+" incident", *m.mp.Incident); err != nil {
				return err
			}
		}
	}
	if p.IncidentTo < p.IncidentFrom {
		return fmt.Errorf("profile: incident_to %s is before incident_from %s", p.IncidentTo, p.IncidentFrom)
	}
	if _, err := p.faults(); err != nil {
		return err
	}
	for _, class := range classes {
		_, ok := p.Faults[class]
		if !ok && (p.Primary.uses(class) || p.Fallback.uses(class)) {
			return fmt.Errorf("profile faults: no fault plays %s, and a rate asks for it", class)
		}
	}
	return nil
}

// faults builds the transport fault of every class the profile names. A
// fault holds only its parameters, so a run builds them once and every
// attempt shares them, as an inject window's attempts share its fault.
func (p Profile) faults() (map[string]inject.Fault, error) {
	out := make(map[string]inject.Fault, len(p.Faults))
	for _, class := range slices.Sorted(maps.Keys(p.Faults)) {
		if !slices.Contains(classes, class) {
			return nil, fmt.Errorf("profile faults: unknown class %q (valid: %s)", class, strings.Join(classes, ", "))
		}
		f, err := inject.NewFault(p.Faults[class])
		if err != nil {
			return nil, fmt.Errorf("profile faults: %s: %w", class, err)
		}
		out[class] = f
	}
	return out, nil
}

// rates returns the rates of the model on rung (primary or fallback) for
// an attempt starting at offset at.
func (p Profile) rates(rung string, at time.Duration) Rates {
	mp := p.Primary
	if rung == RungFallback {
		mp = p.Fallback
	}
	if mp.Incident != nil && at >= p.IncidentFrom && at < p.IncidentTo {
		return *mp.Incident
	}
	return mp.Normal
}

// draw picks the class of one attempt ("" for a good one) with rng.
func (p Profile) draw(rung string, at time.Duration, rng *rand.Rand) string {
	r := p.rates(rung, at)
	x := rng.Float64()
	for _, class := range classes {
		rate := r.of(class)
		if x < rate {
			return class
		}
		x -= rate
	}
	return ""
}
