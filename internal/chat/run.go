package chat

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/tools"
)

// Rungs of a model call: the primary model, or the fallback the status
// breaker and the stream-rate check send calls to.
const (
	RungPrimary  = "primary"
	RungFallback = "fallback"
)

// The default models: the built-in fake model's.
const (
	DefaultPrimaryModel  = "gpt-5.4-mini"
	DefaultFallbackModel = "gpt-5.4-nano"
)

// Config is a chat run's whole configuration. Durations are nanoseconds in
// JSON.
type Config struct {
	// Conversations is how many conversations start; Rate how many a second.
	Conversations int     `json:"conversations"`
	Rate          float64 `json:"rate"`
	// Seed seeds every attempt's fault draw (and the fake model).
	Seed int64 `json:"seed"`
	// Incident names the profile's incident kind, for tables.
	Incident string  `json:"incident"`
	Policy   Policy  `json:"policy"`
	Profile  Profile `json:"profile"`
	// Agent is the agent's size: its fixed prompt and its answers' length.
	// The zero value is the built-in prompt alone (AgentCompact's sizes).
	Agent AgentProfile `json:"agent"`
	// PrimaryModel and FallbackModel are the models' names.
	PrimaryModel  string `json:"primary_model"`
	FallbackModel string `json:"fallback_model"`
	// Clock, when set, is logged as the run's clock right after run_start.
	Clock string `json:"clock,omitempty"`
	// MaxDuration cancels conversations still going then; 0: none.
	MaxDuration time.Duration `json:"max_duration_ns,omitempty"`
	// Overrides are the settings changed from the preset, as given.
	Overrides map[string]string `json:"overrides,omitempty"`
	// ToolBreakers, if set, guards the tools with breakers per dependency
	// (or per tool).
	ToolBreakers *ToolBreakers `json:"tool_breakers,omitempty"`
	// ToolOutages are outage windows on the services, by dependency
	// ("orders", "carrier"), played by inject's faults (a carrier hang).
	ToolOutages map[string][]event.Window `json:"tool_outages,omitempty"`

	// Models is the transport to the models (the fake model in-process);
	// Tools runs tool calls: nil means the built-in services in-process,
	// with ToolOutages under them. Neither is serialised.
	Models http.RoundTripper `json:"-"`
	Tools  ToolRunner        `json:"-"`
	// Emails are the conversations' first messages, cycled; nil means the
	// built-in conversations (Conversations).
	Emails []emails.Email `json:"-"`
}

// DefaultConfig is the write-up's simulation: 1,000 conversations one a
// second, the mixed incident from 300 s to 600 s, the SDK's defaults, the
// simulation's agent.
func DefaultConfig() Config {
	p, _ := Preset(PresetDefaults)
	prof, _ := IncidentProfile(IncidentMixed)
	return Config{Conversations: 1000, Rate: 1, Seed: 1, Incident: IncidentMixed, Policy: p, Profile: prof, Agent: DefaultAgentProfile(),
		PrimaryModel: DefaultPrimaryModel, FallbackModel: DefaultFallbackModel}
}

// MaxConversations is the most conversations one chat drill starts. The
// bound keeps a typo from asking for a drill that cannot end: the run and
// its fold keep a record per conversation, and each runs for minutes.
const MaxConversations = 100_000

// MaxRate is the highest arrival rate, conversations a second.
const MaxRate = 1_000

// CheckConversations says what is wrong with n as the number of
// conversations a drill starts: 1 to MaxConversations.
func CheckConversations(n int) error {
	if n < 1 || n > MaxConversations {
		return fmt.Errorf("must be between 1 and %d conversations, got %d", MaxConversations, n)
	}
	return nil
}

// CheckRate says what is wrong with rate as conversations started a
// second: edge.MinRate to MaxRate (NaN and infinities are refused).
func CheckRate(rate float64) error {
	if !(rate >= edge.MinRate && rate <= MaxRate) {
		return fmt.Errorf("must be between %g and %d conversations a second, got %v", edge.MinRate, MaxRate, rate)
	}
	return nil
}

// CheckArrivals says what is wrong with n conversations started at rate a
// second: each on its own (CheckConversations, CheckRate), and the starts
// must fit in the longest drill (edge.MaxDuration).
func CheckArrivals(n int, rate float64) error {
	if err := CheckConversations(n); err != nil {
		return fmt.Errorf("conversations %w", err)
	}
	if err := CheckRate(rate); err != nil {
		return fmt.Errorf("rate %w", err)
	}
	if float64(n)/rate > edge.MaxDuration.Seconds() {
		return fmt.Errorf("starting %d conversations at %v a second takes longer than %s, the longest drill runs", n, rate, edge.MaxDuration)
	}
	return nil
}

// Validate says what is wrong with c.
func (c Config) Validate() error {
	if err := CheckArrivals(c.Conversations, c.Rate); err != nil {
		return err
	}
	switch {
	case c.Models == nil:
		return errors.New("chat: no transport to the models")
	case c.Tools != nil && len(c.ToolOutages) > 0:
		return errors.New("chat: tool outages apply to the built-in services only")
	}
	if c.ToolBreakers != nil {
		if err := c.ToolBreakers.Validate(); err != nil {
			return err
		}
	}
	if err := validateToolOutages(c.ToolOutages); err != nil {
		return err
	}
	if err := c.Policy.Validate(); err != nil {
		return err
	}
	if err := c.Agent.Validate(); err != nil {
		return err
	}
	return c.Profile.Validate()
}

// Run is one chat drill: its configuration, its log, and the breaker on
// the primary model.
type Run struct {
	cfg          Config
	log          *event.Log
	start        time.Time
	client       openai.Client
	modelBreaker *breaker.Breaker
	toolGuard    *toolGuard
	faults       map[string]inject.Fault // the profile's, by class
	ended        atomic.Int64            // conversations ended, for progress lines
	set          []emails.Email
	tools        []openai.ChatCompletionToolUnionParam
	system       string // the agent's system message (AgentSystemPrompt)
}

// New prepares a chat run logging to a new log that starts now.
func New(cfg Config) (*Run, error) {
	cfg.Policy = cfg.Policy.Normalized()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	faults, err := cfg.Profile.faults()
	if err != nil {
		return nil, err
	}
	now := time.Now()
	r := &Run{cfg: cfg, faults: faults, log: event.NewLog(now), start: now, set: cfg.Emails, tools: tools.Definitions()}
	if r.set == nil {
		r.set = Conversations()
	}
	r.system = AgentSystemPrompt(cfg.Agent, r.tools)
	if b := cfg.Policy.Breaker; b != nil {
		s := *b
		s.Name = RungPrimary
		s.OnChange = r.logBreakerChange(RungPrimary)
		r.modelBreaker = breaker.New(s)
	}
	if cfg.Tools == nil {
		shop := tools.NewShop(r.set)
		shop.RecordTokens = cfg.Agent.LookupTokens
		r.cfg.Tools = tools.NewInProcessShop(shop, 0, r.toolWrap)
	}
	r.toolGuard = r.newToolGuard()
	r.client = openai.NewClient(option.WithBaseURL("http://fake-model.invalid/v1"), option.WithAPIKey("drill"),
		option.WithHTTPClient(&http.Client{Transport: &modelTransport{r: r, next: cfg.Models}}))
	return r, nil
}

// Conversations are the built-in conversations' first messages: the data
// set's emails that name an order (81 of its 120), in their order. The
// simulation's conversation needs four good model calls (interpret the
// question, look up the order, look up the delivery, answer); an email
// without an order number is a two-call conversation (the agent reads it
// and answers, or asks for the number), so it is left out.
func Conversations() []emails.Email {
	var out []emails.Email
	for _, e := range emails.All() {
		if emails.NormalizeOrderNumber(e.Truth.OrderNumber) != "" {
			out = append(out, e)
		}
	}
	return out
}

// logBreakerChange returns the OnChange of a breaker guarding rung (the
// primary model, or a tool breaker's key): each change is a breaker_change
// event.
func (r *Run) logBreakerChange(rung string) func(breaker.Change) {
	return func(ch breaker.Change) {
		r.log.Append(event.Event{Kind: event.BreakerChange, Rung: rung, Breaker: &event.BreakerState{
			Name: ch.Name, From: ch.From.String(), To: ch.To.String(), Generation: ch.Generation,
			Failures: ch.Failures, Successes: ch.Successes, Reason: ch.Reason}})
	}
}

// Ended is how many conversations have ended so far, for progress lines
// (the figures come from the fold).
func (r *Run) Ended() int { return int(r.ended.Load()) }

// Log is the run's event log.
func (r *Run) Log() *event.Log { return r.log }

// Config is the run's configuration, its policy normalised.
func (r *Run) Config() Config { return r.cfg }

func (r *Run) model(rung string) string {
	if rung == RungFallback {
		return r.cfg.FallbackModel
	}
	return r.cfg.PrimaryModel
}

// Info is what the run_start records of the run.
func (r *Run) Info() *event.RunInfo {
	c := r.cfg
	info := &event.RunInfo{Workload: event.WorkloadChat, Outage: c.Incident, Policy: c.Policy.Name, Emails: c.Conversations,
		Rate: c.Rate, Target: RungPrimary, OutageFromS: c.Profile.IncidentFrom.Seconds(), OutageToS: c.Profile.IncidentTo.Seconds(),
		TimeLimitScope: "read", Seed: c.Seed, Ceiling: c.MaxDuration, Overrides: c.Overrides, Options: c.Policy.Checks()}
	info.Rungs = []event.Rung{{Name: RungPrimary, Model: c.PrimaryModel, TimeLimit: c.Policy.ReadTimeout, Retries: c.Policy.Retries,
		HasBreaker: c.Policy.Breaker != nil}, {Name: RungFallback, Model: c.FallbackModel, TimeLimit: c.Policy.ReadTimeout, Retries: c.Policy.Retries}}
	if b := c.Policy.Breaker; b != nil {
		info.Rungs[0].Breaker = b.Record()
	}
	// Events name the data set's email a conversation opens with, whose id
	// can pass the number of conversations (the built-in set skips emails).
	for i := range min(c.Conversations, len(r.set)) {
		if id := r.set[i].ID; id > max(info.MaxEmailID, c.Conversations) {
			info.MaxEmailID = id
		}
	}
	return info
}

// Start runs the drill to its end: conversations start at t = i / rate,
// each runs to its ending, and the log is closed. It returns the run's
// status; ctx ending stops arrivals and cancels conversations in flight.
func (r *Run) Start(ctx context.Context) string {
	defer r.log.Close()
	if r.modelBreaker != nil {
		defer r.modelBreaker.Close()
	}
	defer r.toolGuard.close()
	info := r.Info()
	info.Stamp(r.log.Start())
	r.log.Append(event.Event{Kind: event.RunStart, Run: info})
	if r.cfg.Clock != "" {
		r.log.Append(event.Event{Kind: event.RunClock, Detail: r.cfg.Clock})
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	status := event.StatusCompleted
	var ceiling atomic.Bool
	if r.cfg.MaxDuration > 0 {
		t := time.AfterFunc(r.cfg.MaxDuration, func() { ceiling.Store(true); cancel() })
		defer t.Stop()
	}
	var wg sync.WaitGroup
	notSent := 0
	for i := range r.cfg.Conversations {
		due := r.start.Add(time.Duration(float64(i) / r.cfg.Rate * float64(time.Second)))
		if d := time.Until(due); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
			}
		}
		if ctx.Err() != nil {
			notSent = r.cfg.Conversations - i
			break
		}
		c := &conversation{r: r, id: i + 1, email: r.set[i%len(r.set)]}
		wg.Go(func() { c.run(ctx) })
	}
	wg.Wait()
	end := &event.RunEndInfo{Status: status, NotSent: notSent}
	switch {
	case ceiling.Load():
		end.Status, end.NotSentReason = event.StatusAborted, event.NotSentCeiling
	case ctx.Err() != nil:
		end.Status, end.NotSentReason = event.StatusInterrupted, event.NotSentStopped
	}
	if notSent == 0 {
		end.NotSentReason = ""
	}
	r.log.Append(event.Event{Kind: event.RunEnd, Detail: end.Status, End: end})
	return end.Status
}

// attemptFailed logs an attempt that ended without a 200 (an error status,
// or no response) and reports it to the primary's breaker.
func (r *Run) attemptFailed(tr *callTrace, a *attempt) {
	var outcome event.Outcome
	if a.err != nil {
		outcome = chain.Classify(context.Background(), a.err)
	} else {
		outcome = chain.ClassifyStatus(a.status)
	}
	if a.rung == RungPrimary && r.modelBreaker != nil {
		r.modelBreaker.Observe(chain.CountResult(r.modelBreaker.Settings().Counting, outcome))
	}
	r.log.Append(event.Event{Kind: event.ModelAttempt, Email: tr.email, Rung: a.rung, Model: a.model, Outcome: outcome, Status: a.status,
		Fault: a.class, Detail: errText(a.err), Chat: &event.Chat{Conversation: tr.conv, Turn: tr.turn, Step: event.StepFailed,
			Elapsed: time.Since(tr.start)}})
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
