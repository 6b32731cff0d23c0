package chat

import (
	"fmt"
	"strings"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/suggest"
)

// Policy is how the agent runs a conversation: the SDK's limits on each
// model call, the turn limit, and the five checks, each at the layer that
// sees its signal. Its zero value (with Retries set) is the SDK's default
// policy; Preset gives the three named ones.
type Policy struct {
	// Name is the preset's name.
	Name string `json:"name"`
	// ReadTimeout is the longest wait for the next bytes of a model
	// call's response (the read timeout of the Python SDKs: it restarts
	// on every chunk, so a trickle never trips it); 0 means none.
	ReadTimeout time.Duration `json:"read_timeout_ns"`
	// Retries is how many times a model call is retried: the SDK's
	// retries on errors, and an aborted stream uses one up too.
	Retries int `json:"retries"`
	// TurnLimit is the most model calls a conversation may make; 0 means 10.
	TurnLimit int `json:"turn_limit"`
	// AttemptDeadline bounds one attempt from its request to its last
	// byte (the Agents SDK's ModelSettings.timeout); 0 means none.
	AttemptDeadline time.Duration `json:"attempt_deadline_ns,omitempty"`
	// MaxTokens is each call's max_completion_tokens; 0 sends none.
	MaxTokens int `json:"max_tokens,omitempty"`

	// Breaker is check 1, the status breaker on the primary model: while
	// it is open calls go to the fallback model. nil: no breaker. What it
	// counts beyond errors is set by the stream-rate and validity checks
	// (breaker.Counting).
	Breaker *breaker.Settings `json:"breaker,omitempty"`
	// StreamFloor is check 2, the stream-rate check: a stream under the
	// floor at the check is aborted and the call retried on the fallback.
	chain.StreamFloor
	// Validity is check 3: a tool call whose arguments do not parse is a
	// failure (for the breaker too, CountInvalid); this many in one
	// conversation hand it over. 0: off.
	Validity int `json:"validity,omitempty"`
	// LoopGuard is check 4: this many identical tool calls in a row hand
	// the conversation over. 0: off.
	LoopGuard int `json:"loop_guard,omitempty"`
	// Budget is check 5: the conversation's total time and tokens,
	// checked between calls; with it on, a conversation that ends without
	// an answer is handed over. The zero value is off.
	Budget Budget `json:"budget,omitzero"`
}

// Budget is a conversation's total budget, checked between model calls:
// it cannot stop a call already running.
type Budget struct {
	// Time is the conversation's time budget; 0: none.
	Time time.Duration `json:"time_ns,omitempty"`
	// Tokens is its token budget (prompt and completion, history resent
	// each turn); 0: none.
	Tokens int `json:"tokens,omitempty"`
}

// On reports whether the budget is switched on.
func (b Budget) On() bool { return b.Time > 0 || b.Tokens > 0 }

// DefaultTurnLimit is the OpenAI Agents SDK's max_turns, the agent loop's
// limit when none is set.
const DefaultTurnLimit = 10

// DefaultReadTimeout is the Python SDKs' read timeout (openai and
// anthropic alike: 600 s), which the write-up's default policy uses.
// openai-go has no read timeout of its own.
const DefaultReadTimeout = 600 * time.Second

// The checks' figures, the write-up's.
const (
	breakerFailures = 5
	breakerCooldown = 30 * time.Second
	streamFloor     = 15
	streamCheck     = 3 * time.Second
	validityLimit   = 2
	loopLimit       = 3
	budgetTime      = 60 * time.Second
	budgetTokens    = 40_000
)

// The preset names.
const (
	PresetDefaults  = "agent-defaults"
	PresetBreaker   = "agent-breaker"
	PresetAllChecks = "agent-all-checks"
)

var presets = []string{PresetDefaults, PresetBreaker, PresetAllChecks}

// PresetNames lists the chat policy presets.
func PresetNames() []string { return append([]string(nil), presets...) }

// StatusBreaker is check 1's breaker: 5 consecutive failures open it for
// 30 s, then one trial call. The write-up's breaker is told a time and a
// verdict for every outcome on the primary (breaker.record(task.now,
// outcome in seen)) and sees only what the checks that are on call
// failures (alone, refusals); the engine reports each primary attempt
// through Observe, so an outcome counts in the state it arrives in, the
// trial's verdict is the first to arrive while half-open, and a trial
// that streams slowly for minutes holds no one on the fallback. No probe
// timeout calls a trial lost while it runs (the bound is the longest
// drill).
func StatusBreaker() *breaker.Settings {
	return &breaker.Settings{Trip: breaker.Trip{Consecutive: true, Failures: breakerFailures}, Cooldown: breakerCooldown,
		ProbeTimeout: edge.MaxDuration}
}

// Preset returns a chat policy preset: agent-defaults (the SDK's limits
// and the turn limit, no check), agent-breaker (the status breaker alone)
// or agent-all-checks (all five).
func Preset(name string) (Policy, error) {
	p := Policy{Name: name, ReadTimeout: DefaultReadTimeout, Retries: SDKDefaults().Retries, TurnLimit: DefaultTurnLimit}
	switch name {
	case PresetDefaults:
	case PresetBreaker:
		p.Breaker = StatusBreaker()
	case PresetAllChecks:
		p.Breaker = StatusBreaker()
		p = p.WithStreamCheck().WithValidity().WithLoopGuard().WithBudget()
	default:
		return Policy{}, fmt.Errorf("unknown chat policy %q (valid: %s)%s", name, strings.Join(presets, ", "), suggest.DidYouMean(name, "", presets))
	}
	return p, nil
}

// The checks by name, as a policy name adds them to a preset
// (agent-defaults+budget).
const (
	CheckBreaker  = "breaker"
	CheckStream   = "stream"
	CheckValidity = "validity"
	CheckLoop     = "loop"
	CheckBudget   = "budget"
)

var checkNames = []string{CheckBreaker, CheckStream, CheckValidity, CheckLoop, CheckBudget}

// PolicyByName returns a preset, or a preset with checks switched on at
// the write-up's figures, written preset+check+check: agent-defaults+budget
// is the defaults with only the conversation budget, agent-defaults+stream
// with only the stream-rate check.
func PolicyByName(name string) (Policy, error) {
	base, rest, _ := strings.Cut(name, "+")
	p, err := Preset(base)
	if err != nil || rest == "" {
		return p, err
	}
	p.Name = name
	for _, c := range strings.Split(rest, "+") {
		switch c {
		case CheckBreaker:
			if p.Breaker == nil {
				p.Breaker = StatusBreaker()
			}
		case CheckStream:
			p = p.WithStreamCheck()
		case CheckValidity:
			p = p.WithValidity()
		case CheckLoop:
			p = p.WithLoopGuard()
		case CheckBudget:
			p = p.WithBudget()
		default:
			return Policy{}, fmt.Errorf("policy %q: unknown check %q (valid: %s)%s", name, c, strings.Join(checkNames, ", "), suggest.DidYouMean(c, "", checkNames))
		}
	}
	return p.counting(), nil
}

// WithStreamCheck switches check 2 on at the write-up's figures (15
// tokens/s, checked 3 s into the stream); the breaker counts aborts.
func (p Policy) WithStreamCheck() Policy {
	p.StreamFloor = chain.StreamFloor{MinTokensPerS: streamFloor, Check: streamCheck}
	return p.counting()
}

// WithValidity switches check 3 on: two unparsable tool calls hand a
// conversation over; the breaker counts them.
func (p Policy) WithValidity() Policy {
	p.Validity = validityLimit
	return p.counting()
}

// WithLoopGuard switches check 4 on: three identical tool calls in a row.
func (p Policy) WithLoopGuard() Policy {
	p.LoopGuard = loopLimit
	return p
}

// WithBudget switches check 5 on: 60 s and 40,000 tokens a conversation.
func (p Policy) WithBudget() Policy {
	p.Budget = Budget{Time: budgetTime, Tokens: budgetTokens}
	return p
}

// counting makes the breaker (if any) count what the checks that are on
// call failures: an aborted stream, an unparsable tool call; and a refusal
// always, a 429 as a 529 or 503 (the write-up's status breaker counts
// "overloaded", whichever status says it).
func (p Policy) counting() Policy {
	if p.Breaker != nil {
		b := *p.Breaker
		b.Count429 = true
		b.CountSlowStream = p.MinTokensPerS > 0
		b.CountInvalid = p.Validity > 0
		p.Breaker = &b
	}
	return p
}

// Normalized returns p with its zero turn limit and stream check filled
// in and the breaker counting what the checks on call failures.
func (p Policy) Normalized() Policy {
	if p.TurnLimit <= 0 {
		p.TurnLimit = DefaultTurnLimit
	}
	if p.MinTokensPerS > 0 && p.Check <= 0 {
		p.Check = streamCheck
	}
	return p.counting()
}

// Validate says what is wrong with p.
func (p Policy) Validate() error {
	if err := edge.Retries(p.Retries); err != nil {
		return fmt.Errorf("retries %w", err)
	}
	switch {
	case p.TurnLimit < 0:
		return fmt.Errorf("turn_limit must not be negative, got %d", p.TurnLimit)
	case p.ReadTimeout < 0:
		return fmt.Errorf("read_timeout must not be negative, got %s", p.ReadTimeout)
	case p.AttemptDeadline < 0 || p.MaxTokens < 0:
		return fmt.Errorf("attempt_deadline and max_tokens must not be negative")
	case p.Validity < 0 || p.LoopGuard < 0:
		return fmt.Errorf("validity and loop_guard must not be negative")
	case p.Budget.Time < 0 || p.Budget.Tokens < 0:
		return fmt.Errorf("the budget must not be negative")
	case p.MinTokensPerS < 0:
		return fmt.Errorf("min_tokens_per_s must not be negative")
	}
	if p.Breaker != nil {
		if err := p.Breaker.Validate(); err != nil {
			return fmt.Errorf("breaker: %w", err)
		}
	}
	return nil
}

// Checks lists the checks that are on, in words, for tables and headers:
// "status breaker", "stream rate 15 tokens/s after 3s", "validity 2",
// "loop guard 3", "budget 1m0s 40000 tokens". Empty for none.
func (p Policy) Checks() []string {
	var out []string
	if p.Breaker != nil {
		out = append(out, "status breaker "+p.Breaker.WithDefaults().Trip.String())
	}
	if p.MinTokensPerS > 0 {
		out = append(out, fmt.Sprintf("stream rate %g tokens/s after %s", p.MinTokensPerS, format.GoDuration(p.Normalized().Check)))
	}
	if p.Validity > 0 {
		out = append(out, fmt.Sprintf("validity %d", p.Validity))
	}
	if p.LoopGuard > 0 {
		out = append(out, fmt.Sprintf("loop guard %d", p.LoopGuard))
	}
	if p.Budget.On() {
		out = append(out, fmt.Sprintf("budget %s %d tokens", format.GoDuration(p.Budget.Time), p.Budget.Tokens))
	}
	return out
}
