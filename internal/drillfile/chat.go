package drillfile

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/chat"
)

// ChatPolicy are the chat workload's policy settings a drill file or a
// flag may change on a chat preset: the SDK's limits, the turn limit and
// the five checks. Each key is a flag of `drill compare --workload chat`
// with dashes (FlagName); the breaker's trip_failures and cooldown and the
// stream check's min_tokens_per_s and stream_check are the keys (and
// flags) the triage policy uses for the same settings. A nil field keeps
// the preset's value. Apply is the one place they are checked and set.
type ChatPolicy struct {
	ReadTimeout *Duration `yaml:"read_timeout"`
	Retries     *Int      `yaml:"retries"`
	TurnLimit   *Int      `yaml:"turn_limit"`
	// AttemptDeadline bounds each attempt from request to last byte;
	// MaxTokens is each call's max_completion_tokens.
	AttemptDeadline *Duration `yaml:"attempt_deadline"`
	MaxTokens       *Int      `yaml:"max_tokens"`
	// StatusBreaker switches check 1 on (true) or off (false).
	StatusBreaker *bool     `yaml:"status_breaker"`
	TripFailures  *Int      `yaml:"trip_failures"`
	Cooldown      *Duration `yaml:"cooldown"`
	// MinTokensPerS switches check 2 on at this floor (0: off).
	MinTokensPerS *float64  `yaml:"min_tokens_per_s"`
	StreamCheck   *Duration `yaml:"stream_check"`
	// Validity is check 3's count of unparsable tool calls that hand a
	// conversation over (0: off); LoopGuard check 4's identical calls in
	// a row (0: off).
	Validity  *Int `yaml:"validity"`
	LoopGuard *Int `yaml:"loop_guard"`
	// BudgetTime and BudgetTokens are check 5, the conversation budget
	// (0 and 0: off).
	BudgetTime   *Duration `yaml:"budget_time"`
	BudgetTokens *Int      `yaml:"budget_tokens"`
}

// ChatPolicyKeys lists every chat policy key, in the order of ChatPolicy.
func ChatPolicyKeys() []string { return keysOf[ChatPolicy]() }

// Field returns a pointer to the field of key (a **T), or nil for an
// unknown key: for setting the settings from flags without a second list.
func (o *ChatPolicy) Field(key string) any { return fieldOf(o, key) }

// Merge is o with every setting over gives laid over it.
func (o ChatPolicy) Merge(over ChatPolicy) ChatPolicy { return mergeSet(o, over) }

// Set lists the settings given, as "key value", for describing a policy.
func (o ChatPolicy) Set() map[string]string {
	out := map[string]string{}
	v := reflect.ValueOf(o)
	for i := range v.NumField() {
		if f := v.Field(i); !f.IsNil() {
			out[yamlKey(v.Type().Field(i))] = fmt.Sprint(reflect.Indirect(f).Interface())
		}
	}
	return out
}

// Apply sets the given settings on p; a value out of range is an
// *OverrideError named by name (the key, or the flag); several are joined.
func (o ChatPolicy) Apply(p *chat.Policy, name func(key string) string) error {
	var errs []error
	bad := func(key, format string, a ...any) {
		errs = append(errs, &OverrideError{Key: key, Name: name(key), Msg: fmt.Sprintf(format, a...)})
	}
	count := func(key string, n *Int, min Int, set func(int)) {
		switch {
		case n == nil:
		case *n < min:
			bad(key, "must be at least %d, got %d", min, *n)
		default:
			set(int(*n))
		}
	}
	dur := func(key string, d *Duration, set func(Duration)) {
		switch {
		case d == nil:
		case *d < 0:
			bad(key, "must not be negative, got %s", *d)
		default:
			set(*d)
		}
	}
	dur("read_timeout", o.ReadTimeout, func(d Duration) { p.ReadTimeout = d.D() })
	count("retries", o.Retries, 0, func(n int) { p.Retries = n })
	count("turn_limit", o.TurnLimit, 1, func(n int) { p.TurnLimit = n })
	dur("attempt_deadline", o.AttemptDeadline, func(d Duration) { p.AttemptDeadline = d.D() })
	count("max_tokens", o.MaxTokens, 0, func(n int) { p.MaxTokens = n })
	if o.StatusBreaker != nil {
		if !*o.StatusBreaker {
			p.Breaker = nil
		} else if p.Breaker == nil {
			p.Breaker = chat.StatusBreaker()
		}
	}
	if (o.TripFailures != nil || o.Cooldown != nil) && p.Breaker == nil {
		key := "trip_failures"
		if o.TripFailures == nil {
			key = "cooldown"
		}
		bad(key, "policy %s has no status breaker (set %s true)", p.Name, name("status_breaker"))
	} else if p.Breaker != nil {
		b := *p.Breaker
		count("trip_failures", o.TripFailures, 1, func(n int) { b.Trip.Failures = n })
		dur("cooldown", o.Cooldown, func(d Duration) { b.Cooldown = d.D() })
		p.Breaker = &b
	}
	if o.MinTokensPerS != nil {
		if err := nonNegativeRate(*o.MinTokensPerS); err != nil {
			bad("min_tokens_per_s", "%v", err)
		} else {
			p.MinTokensPerS = *o.MinTokensPerS
		}
	}
	dur("stream_check", o.StreamCheck, func(d Duration) { p.Check = d.D() })
	count("validity", o.Validity, 0, func(n int) { p.Validity = n })
	count("loop_guard", o.LoopGuard, 0, func(n int) { p.LoopGuard = n })
	dur("budget_time", o.BudgetTime, func(d Duration) { p.Budget.Time = d.D() })
	count("budget_tokens", o.BudgetTokens, 0, func(n int) { p.Budget.Tokens = n })
	*p = p.Normalized()
	if err := p.Validate(); err != nil && len(errs) == 0 {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// ChatFile is a drill file's chat: section: a drill file that has one runs
// the chat workload (support conversations with tool calls). Unset fields
// take drill compare --workload chat's defaults; flags given override them.
type ChatFile struct {
	Conversations *Int     `yaml:"conversations"`
	Rate          *float64 `yaml:"rate"`
	// Seeds run every policy on each seed.
	Seeds []int64 `yaml:"seeds"`
	// Incidents are incident kinds (mixed, mostly-slow, mostly-overloaded,
	// none), each a profile of its own.
	Incidents []string `yaml:"incidents"`
	// Policies are chat presets, or presets with checks added
	// (agent-defaults+budget).
	Policies []string `yaml:"policies"`
	// Policy changes every policy's settings (the chat policy keys).
	Policy ChatPolicy `yaml:"policy"`
	// AgentProfile names the agent's size (simulation, compact): its fixed
	// prompt and its answers' length.
	AgentProfile string `yaml:"agent_profile"`
	// Profile changes the incidents' profile: the window, the rates per
	// model, the faults that play each class.
	Profile *ChatProfile `yaml:"profile"`
	// ToolBreakers puts breakers on the tools.
	ToolBreakers *ChatToolBreakers `yaml:"tool_breakers"`
	// ToolOutages are outage windows on the services, by dependency
	// (orders, carrier), written as outages: are.
	ToolOutages map[string][]Window `yaml:"tool_outages"`
}

// ChatProfile is a profile: section. A field left out keeps the
// incident's.
type ChatProfile struct {
	IncidentFrom *Duration                `yaml:"incident_from"`
	IncidentTo   *Duration                `yaml:"incident_to"`
	LoopPersists *bool                    `yaml:"loop_persists"`
	Primary      *ChatModelProfile        `yaml:"primary"`
	Fallback     *ChatModelProfile        `yaml:"fallback"`
	Faults       map[string]ChatFaultSpec `yaml:"faults"`
}

// ChatModelProfile is one model's rates: a normal day's and the incident
// window's (a model without incident: keeps its normal rates all run).
type ChatModelProfile struct {
	Normal   *chat.Rates `yaml:"normal"`
	Incident *chat.Rates `yaml:"incident"`
}

// ChatFaultSpec is the fault that plays a class: its kind and parameters.
type ChatFaultSpec struct {
	Kind   string `yaml:"kind"`
	Params Params `yaml:"params"`
}

// ChatToolBreakers is a tool_breakers: section: the scope (dependency, the
// default, or tool) and the trip rules as the triage breaker keys spell
// them; left out, the tool-breaker write-up's.
type ChatToolBreakers struct {
	Scope       string    `yaml:"scope"`
	Trip        Rules     `yaml:"trip"`
	FailureRate *float64  `yaml:"trip_failure_rate"`
	P99         *Duration `yaml:"trip_p99"`
	MinSamples  *Int      `yaml:"trip_min_samples"`
	Window      *Duration `yaml:"trip_window"`
	Cooldown    *Duration `yaml:"cooldown"`
}

// ApplyProfile lays the profile: section over p.
func (f *ChatFile) ApplyProfile(p *chat.Profile) {
	c := f.Profile
	if c == nil {
		return
	}
	if c.IncidentFrom != nil {
		p.IncidentFrom = c.IncidentFrom.D()
	}
	if c.IncidentTo != nil {
		p.IncidentTo = c.IncidentTo.D()
	}
	if c.LoopPersists != nil {
		p.LoopPersists = *c.LoopPersists
	}
	for _, m := range []struct {
		in  *ChatModelProfile
		out *chat.ModelProfile
	}{{c.Primary, &p.Primary}, {c.Fallback, &p.Fallback}} {
		if m.in == nil {
			continue
		}
		if m.in.Normal != nil {
			m.out.Normal = *m.in.Normal
		}
		if m.in.Incident != nil {
			r := *m.in.Incident
			m.out.Incident = &r
		}
	}
	for class, spec := range c.Faults {
		if p.Faults == nil {
			p.Faults = map[string]event.FaultSpec{}
		}
		p.Faults[class] = event.FaultSpec{Kind: spec.Kind, Params: map[string]string(spec.Params)}
	}
}

// Tools returns the tool breakers and the services' outages the section
// sets; a breaker key refused, or an outage window that does not check, is
// an error. The breaker keys are the triage policy's (breakerKeys), read
// from the one table.
func (f *ChatFile) Tools() (*chat.ToolBreakers, map[string][]event.Window, error) {
	tb, err := f.toolBreakers()
	if err != nil {
		return nil, nil, err
	}
	var outages map[string][]event.Window
	for dep, ws := range f.ToolOutages {
		for _, w := range ws {
			iw, err := w.Injected()
			if err != nil {
				return nil, nil, fmt.Errorf("tool_outages.%s: %w", dep, err)
			}
			if outages == nil {
				outages = map[string][]event.Window{}
			}
			outages[dep] = append(outages[dep], iw)
		}
	}
	return tb, outages, nil
}

// toolBreakers is the tool_breakers: section laid over the default tool
// breakers, or nil without the section.
func (f *ChatFile) toolBreakers() (*chat.ToolBreakers, error) {
	t := f.ToolBreakers
	if t == nil {
		return nil, nil
	}
	tb := chat.DefaultToolBreakers()
	if t.Scope != "" {
		tb.Scope = t.Scope
	}
	var errs []error
	setBreakerKeys(t, &tb.Settings, func(key string, err error) {
		errs = append(errs, fmt.Errorf("tool_breakers.%s: %w", key, err))
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := tb.Validate(); err != nil {
		return nil, err
	}
	return tb, nil
}

// checkChat checks the chat: section's names (incidents, policies, seeds
// and the policy keys) at their lines, as Check does the triage keys.
func (f *File) checkChat() []error {
	c := f.Chat
	if c == nil {
		return nil
	}
	var errs []error
	add := func(path, format string, a ...any) { errs = append(errs, f.at(path, format, a...)) }
	n, rate := chat.DefaultConfig().Conversations, chat.DefaultConfig().Rate
	if c.Conversations != nil {
		n = int(min(max(*c.Conversations, -1), Int(chat.MaxConversations)+1)) // no overflow on 32-bit int
		if err := chat.CheckConversations(n); err != nil {
			add("$.chat.conversations", "conversations must be between 1 and %d, got %d", chat.MaxConversations, *c.Conversations)
		}
	}
	if c.Rate != nil {
		rate = *c.Rate
		if err := chat.CheckRate(rate); err != nil {
			add("$.chat.rate", "rate %v", err)
		}
	}
	if chat.CheckConversations(n) == nil && chat.CheckRate(rate) == nil {
		if err := chat.CheckArrivals(n, rate); err != nil {
			add("$.chat.rate", "%v", err)
		}
	}
	for i, inc := range c.Incidents {
		if _, err := chat.IncidentProfile(inc); err != nil {
			add(fmt.Sprintf("$.chat.incidents[%d]", i), "%v", err)
		}
	}
	if c.AgentProfile != "" {
		if _, err := chat.AgentProfileByName(c.AgentProfile); err != nil {
			add("$.chat.agent_profile", "%v", err)
		}
	}
	names := c.Policies
	if len(names) == 0 {
		names = chat.PresetNames()
	}
	seen := map[string]bool{}
	for i, name := range names {
		p, err := chat.PolicyByName(name)
		if err != nil {
			add(fmt.Sprintf("$.chat.policies[%d]", i), "%v", err)
			continue
		}
		// A policy key that does not fit a policy is reported at the key,
		// once.
		err = c.Policy.Apply(&p, func(k string) string { return k })
		for _, e := range unjoin(err) {
			var oe *OverrideError
			switch {
			case seen[e.Error()]:
			case errors.As(e, &oe):
				add("$.chat.policy."+oe.Key, "%v", e)
			default:
				add("$.chat.policy", "policy %s: %v", name, e)
			}
			seen[e.Error()] = true
		}
	}
	return errs
}

// unjoin lists the errors errors.Join joined (err itself if it joined
// none; nothing for nil).
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}
