// Package event defines drill's run record: one ordered, append-only log of
// typed events that every other view (summary, dashboard, journal, report)
// folds over.
//
// It is a leaf package on purpose: the engine (workload, chain) writes to it
// and scoring, tui, journal and report read it, so none of them need to import
// the engine to understand a run.
package event

import (
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/drill-dev/drill/emails"
)

// Kind names what happened.
type Kind string

// The kinds of event a run records.
const (
	// RunStart is the first event of every run; it carries RunInfo.
	RunStart Kind = "run_start"
	// OutageStart marks an outage window opening (scheduled or by hand); Fault and Rung say what and where.
	OutageStart Kind = "outage_start"
	// OutageEnd marks the outage window closing.
	OutageEnd Kind = "outage_end"
	// EmailSent is an email entering the chain.
	EmailSent Kind = "email_sent"
	// RungStart is a rung starting its call (all SDK retries included) for an email.
	RungStart Kind = "rung_start"
	// AttemptStart is one HTTP attempt leaving the SDK for the model.
	AttemptStart Kind = "attempt_start"
	// Fault is a fault applied to an HTTP attempt by the injector.
	Fault Kind = "fault"
	// AttemptEnd is one HTTP attempt finishing, with its Outcome.
	AttemptEnd Kind = "attempt_end"
	// RungSkipped is a rung passed over without a request because its breaker is open.
	RungSkipped Kind = "rung_skipped"
	// RungEnd is a rung's call finishing after all SDK retries, with its Outcome.
	RungEnd Kind = "rung_end"
	// BreakerChange is a breaker changing state; it carries Breaker.
	BreakerChange Kind = "breaker"
	// EmailDone is an email answered (or given up on); it carries Result.
	EmailDone Kind = "email_done"
	// Paused and Resumed mark arrivals being held and released by hand.
	Paused  Kind = "paused"
	Resumed Kind = "resumed"
	// RunEnd is the last event of a run; Detail holds how it ended.
	RunEnd Kind = "run_end"
)

// Outcome classifies how an attempt or a rung's call ended. Classes are by
// behaviour (see DESIGN.md): the same timeout can surface as several Go types.
type Outcome string

// Outcome classes.
const (
	OK         Outcome = "ok"
	Timeout    Outcome = "timeout"     // a time limit ran out (attempt or request scope)
	HTTP5xx    Outcome = "http_5xx"    // the server answered 5xx
	HTTP429    Outcome = "http_429"    // rate limited
	HTTP4xx    Outcome = "http_4xx"    // the caller's fault; never trips a breaker
	ConnError  Outcome = "conn_error"  // could not connect, reset, broken body
	Invalid    Outcome = "invalid"     // a 200 whose answer did not parse
	Canceled   Outcome = "canceled"    // the run ended (ceiling, Ctrl-C) while waiting
	OtherError Outcome = "other_error" // anything else
	// BreakerOpen is a rung skipped because its breaker was open: no request was sent.
	BreakerOpen Outcome = "breaker_open"
)

// Transient reports whether an outcome is a failure that can go away on its
// own (timeouts, connection errors, 5xx): the only failures a breaker counts.
func (o Outcome) Transient() bool {
	return o == Timeout || o == HTTP5xx || o == ConnError
}

// Served-by values of an email's result.
const (
	ServedPrimary = "primary"
	ServedBackup  = "backup"
	ServedCanned  = "canned"
	ServedError   = "error"
)

// Run-end statuses, also used as the journal's summary status.
const (
	StatusCompleted   = "completed"
	StatusInterrupted = "interrupted"
	StatusFailed      = "failed"
)

// Event is one step of a run. Fields that do not apply to a Kind are zero and
// omitted from JSON.
type Event struct {
	Seq  int64         `json:"seq"`   // position in the log, from 0
	At   time.Duration `json:"at_ns"` // offset from the run's start
	Kind Kind          `json:"kind"`

	Email   int     `json:"email,omitempty"`   // 1-based email number
	Rung    string  `json:"rung,omitempty"`    // primary, backup, canned
	Model   string  `json:"model,omitempty"`   // model name the rung calls
	Attempt int     `json:"attempt,omitempty"` // SDK retry count of the attempt: 0 is the first try
	Outcome Outcome `json:"outcome,omitempty"` // attempt_end, rung_end
	Status  int     `json:"status,omitempty"`  // HTTP status, when there was a response
	Fault   string  `json:"fault,omitempty"`   // fault kind (fault, outage_start)
	Detail  string  `json:"detail,omitempty"`  // error text, or how the run ended

	Run     *RunInfo      `json:"run,omitempty"`     // run_start
	Breaker *BreakerState `json:"breaker,omitempty"` // breaker
	Result  *Result       `json:"result,omitempty"`  // email_done

	// Probe marks, on rung_start, attempt_start and attempt_end, the call a
	// half-open breaker admitted as its probe.
	Probe bool `json:"probe,omitempty"`
	// Window is, on outage_start and outage_end, the window as the injector
	// applied it: its fault and placement, with actual offsets, scheduled or
	// by hand (window.go).
	Window *Window `json:"window,omitempty"`
	// End is, on run_end, the run's status and the emails never sent.
	End *RunEndInfo `json:"end,omitempty"`
	// FaultParams are the applied fault's parameters, defaults included,
	// and its window's modifiers that differ from their defaults (rate,
	// ramp, flap, models), key → value as written on the command line
	// (fault).
	FaultParams map[string]string `json:"fault_params,omitempty"`
	// TTFT is a streamed call's time to first token: from the rung's
	// start (its first attempt) to the first content delta (stream_end).
	TTFT time.Duration `json:"ttft_ns,omitempty"`
	// Tokens is a streamed call's completion tokens: the usage chunk's
	// count, or the text received at four bytes a token when the stream
	// broke off before it (stream_end).
	Tokens int `json:"tokens,omitempty"`
	// TokensPerS is a streamed call's tokens a second after its first
	// token: the tokens after the first content delta over the time from
	// that delta to the call's end (stream_end).
	TokensPerS float64 `json:"tokens_per_s,omitempty"`

	// Synthetic marks an attempt of a breaker's own health call (probe:
	// synthetic): no customer's email, Email is 0.
	Synthetic bool `json:"synthetic,omitempty"`
	// Hedged marks a rung call started as a hedge (--hedge-after: the
	// primary had not answered in time), on its rung_start and rung_end.
	Hedged bool `json:"hedged,omitempty"`
	// HedgeLost marks a rung_end of a call cancelled because the other
	// call of its hedge answered first (its Outcome is canceled).
	HedgeLost bool `json:"hedge_lost,omitempty"`

	// RetryAfter is the server's Retry-After (or Retry-After-Ms) on an
	// attempt_end whose response carried one (a 429 or a 503), zero otherwise.
	RetryAfter time.Duration `json:"retry_after_ns,omitempty"`
	// Proxy describes the request behind an attempt_start, fault or
	// attempt_end recorded by drill proxy; nil for the engine's own calls.
	Proxy *ProxyCall `json:"proxy,omitempty"`
	// Truth is, on email_sent, the email's right answer as the workload
	// knows it (the built-in set, or a team's file with truth), so a journal
	// is scored the same wherever it is read. Older journals lack it: the
	// fold then looks the email up in the built-in set.
	Truth *emails.Answer `json:"truth,omitempty"`
	// Unscored marks, on email_sent, an email whose right answer is
	// unknown (a team's email without truth): its answer is not scored.
	Unscored bool `json:"unscored,omitempty"`
	// Rejected marks, on email_sent, an email the workload's worker pool
	// (--max-in-flight) had no worker for: it never entered the pool, and
	// its email_done (served by ServedRejected) follows. Journals from
	// before it existed lack it.
	Rejected bool `json:"rejected,omitempty"`
	// Class is, on email_sent, the class the run's routes put the email in
	// before any model call (route.go); empty for a run without routes.
	Class string `json:"class,omitempty"`
	// TruthClass is, on email_sent, the class the email's right answer
	// would put it in, for scoring the classifier; empty when unknown.
	TruthClass string `json:"truth_class,omitempty"`
	// Replica is the fleet replica (from 1) the event happened on, in a
	// drill fleet log; 0 outside a fleet and for the fleet's own events.
	Replica int `json:"replica,omitempty"`
	// Member is the proxy fleet member (drill proxy --member) the event
	// happened on, in a fleet's pulled journal and events stream; empty
	// outside a proxy fleet and for the fleet's own events.
	Member string `json:"member,omitempty"`
	// Fleet is, on fleet_link and member_lost, what the event says about
	// the proxy fleet (proxyfleet.go).
	Fleet *FleetNote `json:"fleet,omitempty"`

	// Usage is the tokens one HTTP attempt used and what they cost: on a
	// usage event (an attempt whose response body was read), or on an
	// attempt_end of an attempt cut before its answer came (timeout,
	// cancelled: a hedge's loser, the run's end), estimated from the
	// request's size because the provider may bill it anyway.
	Usage *Usage `json:"usage,omitempty"`

	// Alert is, on an alert event, the Alertmanager notification's alert
	// drill received (alert.go).
	Alert *Alert `json:"alert,omitempty"`

	// Reclaim is, on a reclaimed event, whose emails a coordinated fleet's
	// worker took over (reclaim.go).
	Reclaim *Reclaim `json:"reclaim,omitempty"`

	// Chat is, on the chat workload's events (conversation.go), the
	// conversation they belong to and what happened in it.
	Chat *Chat `json:"chat,omitempty"`

	// Command is, on an outage_start or outage_end a control command
	// caused (the control API, drill ctl, a fleet's command stream), the
	// command: its id, who sent it, and the duration and models it asked
	// for. Nil for the schedule and the dashboard's keys.
	Command *Command `json:"command,omitempty"`
}

// Command is a control command as the journal records it on the outage
// event it caused.
type Command struct {
	// ID is the command's id, unique per command.
	ID string `json:"id"`
	// Who sent it: NAME@ADDR (drill ctl --as NAME from ADDR), or ADDR.
	Who string `json:"who"`
	// For is how long the started outage was asked to last; 0: until a
	// stop.
	For time.Duration `json:"for_ns,omitempty"`
	// Models are the models the outage was limited to; empty: the
	// target's.
	Models []string `json:"models,omitempty"`
}

// RunInfo is what a fold needs to know about a run's setup; the full
// configuration lives in the journal header.
type RunInfo struct {
	Outage         string  `json:"outage"`                // busy, hang, none
	OutageName     string  `json:"outage_name,omitempty"` // a drill file's name for it, when not the kind
	Policy         string  `json:"policy"`                // preset name
	Emails         int     `json:"emails"`                // emails to send
	Rate           float64 `json:"rate"`                  // emails per second
	Target         string  `json:"target"`                // the rung whose model is broken
	OutageFromS    float64 `json:"outage_from_s"`         // scheduled outage window
	OutageToS      float64 `json:"outage_to_s"`           //
	Follow         int     `json:"follow"`                // the email the summary follows
	TimeLimitScope string  `json:"time_limit_scope"`      // attempt or request
	Rungs          []Rung  `json:"rungs"`                 // the chain, in order

	// Canned is true when the chain ends in the canned reply.
	Canned bool `json:"canned,omitempty"`
	// Seed is the fake model's latency seed.
	Seed int64 `json:"seed,omitempty"`
	// Ceiling is the run's time ceiling: emails still in flight then are cancelled.
	Ceiling time.Duration `json:"ceiling_ns,omitempty"`
	// Overrides are the policy and workload settings the user changed from
	// the preset, by flag or drill-file name, as given (e.g. "primary-timeout": "2s").
	Overrides map[string]string `json:"overrides,omitempty"`
	// Options are the breaker rules and chain options that differ from
	// drill's defaults, in words ("in-flight age 4s", "probes all", "hedge
	// after 2s"), for the dashboard header and reports, live and replayed.
	Options []string `json:"options,omitempty"`
	// MaxEmailID is the highest email id the run sends when its emails
	// are not numbered 1..Emails (a team's file); 0 otherwise.
	MaxEmailID int `json:"max_email_id,omitempty"`
	// MaxSpend is the run's spend limit (--max-spend, max_spend:) in its
	// price table's currency; 0 for none.
	MaxSpend float64 `json:"max_spend,omitempty"`
	// MaxInFlight is the workload's worker pool (--max-in-flight): at most
	// this many emails in flight at once, the others rejected; 0: no limit.
	MaxInFlight int `json:"max_in_flight,omitempty"`
	// Predicted is the breaker-trip arithmetic done from the settings and
	// the outage before the run (package predict), logged so the summary
	// can show it beside the measured figures; nil when not computed.
	Predicted *Predicted `json:"predicted,omitempty"`
	// Routes are the run's routes, in match order, the default route last;
	// nil for a run without routes (route.go).
	Routes []RouteInfo `json:"routes,omitempty"`
	// Workload is the run's workload kind: "" (triage, 120 emails through
	// the chain) or WorkloadChat (support conversations with tool calls).
	Workload string `json:"workload,omitempty"`
	// ID names this run apart from every other (NewRunID, fresh each run):
	// the metrics carry it as the drill_run label, so an alert rule on them
	// names the run it fired in. Empty in journals from before it was
	// recorded.
	ID string `json:"id,omitempty"`
	// StartedAt is the wall-clock time the run started, its offsets'
	// origin: an alert that started before it is not the run's. Zero in
	// journals from before it was recorded.
	StartedAt time.Time `json:"started_at,omitzero"`
}

// Stamp gives the run its identity: a fresh ID and the wall-clock time it
// started at.
func (i *RunInfo) Stamp(start time.Time) {
	i.ID = NewRunID()
	i.StartedAt = start
}

// NewRunID returns a fresh run id: 12 random hex digits.
func NewRunID() string {
	var b [6]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b[:])
}

// Rung describes one rung of the chain for display.
type Rung struct {
	Name       string        `json:"name"`
	Model      string        `json:"model,omitempty"`
	TimeLimit  time.Duration `json:"time_limit_ns,omitempty"`
	Retries    int           `json:"retries"`
	HasBreaker bool          `json:"breaker"`
	// BuiltIn is true when the rung calls drill's built-in fake model,
	// which fails only when drill injects a fault: with no outage its
	// failures are the policy's own (a time limit below the model's
	// latency), never an outage. False for a real endpoint and in journals
	// from before it existed.
	BuiltIn bool `json:"built_in,omitempty"`

	// Breaker is the breaker's full settings, when HasBreaker.
	Breaker *BreakerSettings `json:"breaker_settings,omitempty"`
}

// BreakerSettings describe a rung's breaker: its trip rule, cooldown and
// probe timeout.
type BreakerSettings struct {
	Rule         string        `json:"rule"`             // the trip rule in words, e.g. "5 failures in 10s"
	Consecutive  bool          `json:"consecutive"`      // consecutive-failures rule instead of a time window
	Failures     int           `json:"failures"`         // failures that open it
	Window       time.Duration `json:"window_ns"`        // the sliding window (0 for the consecutive rule)
	Cooldown     time.Duration `json:"cooldown_ns"`      // how long it stays open before a probe
	ProbeTimeout time.Duration `json:"probe_timeout_ns"` // a probe with no result by then counts as failed
}

// BreakerState is a breaker's change of state with a snapshot of its window.
type BreakerState struct {
	Name       string `json:"name"`       // the rung it guards
	From       string `json:"from"`       // closed, open, half-open
	To         string `json:"to"`         //
	Generation uint64 `json:"generation"` // increments on every change
	Failures   int    `json:"failures"`   // failures counted in the window at the change
	Successes  int    `json:"successes"`  // successes counted in the window at the change
	Reason     string `json:"reason"`     // why it changed
}

// Result is how an email ended.
type Result struct {
	ServedBy string         `json:"served_by"`        // primary, backup, canned, error
	Answer   *emails.Answer `json:"answer,omitempty"` // nil for canned and error
	Reply    string         `json:"reply,omitempty"`  // the canned text, when canned
	Wait     time.Duration  `json:"wait_ns"`          // from sent to done
	// Cancelled marks an email the end of the run cut off (Ctrl-C, Stop,
	// the ceiling): an error, but its wait measures the run, not the model.
	Cancelled bool `json:"cancelled,omitempty"`
	// Handover is how a route that never takes the backup held the email
	// (route.go); nil otherwise.
	Handover *Handover `json:"handover,omitempty"`
}

// ByHand is the Detail of outage events started or ended by hand.
const ByHand = "by hand"

// StatusAborted is the run-end status of a run its own safeguard stopped:
// one of its abort conditions, or the time ceiling cancelling emails still
// in flight or never sent.
const StatusAborted = "aborted"

// Reasons an email was not sent, in RunEnd.NotSentReason.
const (
	// NotSentStopped: the run was stopped (Ctrl-C, SIGTERM, q, Stop) first.
	NotSentStopped = "run stopped"
	// NotSentCeiling: the run's time ceiling came first.
	NotSentCeiling = "ceiling"
)

// RunEndInfo is how a run ended: its status and the emails it never sent.
type RunEndInfo struct {
	// Status is completed, interrupted, aborted or failed.
	Status string `json:"status"`
	// NotSent counts the configured emails never sent.
	NotSent int `json:"not_sent"`
	// NotSentReason says why they were not sent (NotSentStopped,
	// NotSentCeiling); empty when every email was sent.
	NotSentReason string `json:"not_sent_reason,omitempty"`
}

// StreamEnd is a streamed call (--stream) finishing or breaking off, just
// before its rung_end: its time to first token, tokens and tokens a
// second, with the call's Outcome.
const StreamEnd Kind = "stream_end"

// Deadline is the outcome of a rung call cut by the email's deadline
// (--email-deadline): the budget for the whole chain ran out.
const Deadline Outcome = "deadline"

// ServedRules is the served-by value of an email answered by the rules rung
// (keyword triage, no model call).
const ServedRules = "rules"

// RunClock is an event saying which clock a run's offsets were measured on:
// Detail is ClockReal or ClockVirtual. A run that ran in virtual time
// (`--clock virtual`, see package vclock) logs one right after RunStart; a
// run without one ran in real time.
const RunClock Kind = "clock"

// Clocks a run can run on: the Detail of a RunClock event and the "clock" of
// a summary and a journal header.
const (
	// ClockReal is wall-clock time: the drill waited out every timeout.
	ClockReal = "real"
	// ClockVirtual is a testing/synctest bubble's fake clock: the same code
	// ran, and time jumped ahead whenever every goroutine was waiting.
	ClockVirtual = "virtual"
)

// ProxyCall is one client request through drill proxy: which request it was,
// what it asked for and, on its attempt_end, what came back. No header of the
// request (least of all its Authorization) is ever recorded.
type ProxyCall struct {
	ID     int    `json:"id"`               // 1-based request number since the proxy started
	Method string `json:"method"`           // HTTP method
	Path   string `json:"path"`             // request path as the client sent it, without the query
	Stream bool   `json:"stream,omitempty"` // a chat completion that asked for a stream
	// SDK and SDKVersion name the client library that sent the request, as
	// its headers say (X-Stainless-Lang and X-Stainless-Package-Version,
	// else the User-Agent): "openai-node", "7.60.0"; empty when they name
	// none. SDKTimeout is the time limit the client declares
	// (X-Stainless-Read-Timeout, else X-Stainless-Timeout); 0 when none.
	SDK        string        `json:"sdk,omitempty"`
	SDKVersion string        `json:"sdk_version,omitempty"`
	SDKTimeout time.Duration `json:"sdk_timeout_ns,omitempty"`
	// Wait is from the request's arrival to the end of its response (attempt_end).
	Wait time.Duration `json:"wait_ns,omitempty"`
	// TTFT is from the request's arrival to its first token: for a stream, the
	// first chunk carrying content; otherwise the first byte of the body
	// (attempt_end; zero when none came).
	TTFT time.Duration `json:"ttft_ns,omitempty"`
	// InputTokens and OutputTokens are the usage the upstream reported
	// (attempt_end; zero when it reported none).
	InputTokens  int `json:"input_tokens,omitempty"`
	OutputTokens int `json:"output_tokens,omitempty"`
	// Cost is what those tokens cost by the proxy's price table
	// (attempt_end; zero when the model has no price); Priced is true when
	// the table has the model's price.
	Cost   float64 `json:"cost,omitempty"`
	Priced bool    `json:"priced,omitempty"`
}

// ProxyUsage is a proxied attempt_end's usage as the engine's attempts
// carry theirs (Usage): the one form the fold's tokens and cost read. Nil
// for an event of no proxied call, or one that reported no usage.
func (e Event) ProxyUsage() *Usage {
	p := e.Proxy
	if p == nil || e.Kind != AttemptEnd || (p.InputTokens == 0 && p.OutputTokens == 0 && p.Cost == 0) {
		return nil
	}
	return &Usage{InputTokens: p.InputTokens, OutputTokens: p.OutputTokens, Cost: p.Cost, Priced: p.Priced || p.Cost > 0}
}

// SlowStream is the outcome of a streamed answer cut because it delivered
// fewer tokens a second than the rung's floor (min_tokens_per_s, checked
// after stream_check).
const SlowStream Outcome = "slow_stream"

// StoreChange is a fleet replica's breakers losing or regaining their shared
// breaker store (drill fleet --breaker-store redis://...): Detail starts
// with StoreFallback or StoreShared, followed by the reason in parentheses.
const StoreChange Kind = "breaker_store"

// Details of a StoreChange event.
const (
	// StoreFallback: the shared store became unreachable; the replica's
	// breakers decide alone (local state) until it returns.
	StoreFallback = "fallback to local breakers"
	// StoreShared: the shared store answered again; the replica's breakers
	// follow the shared state once more.
	StoreShared = "back on the shared breaker"
)

// AttemptUsage is the usage of one HTTP attempt whose response body was
// read (Usage; Email, Rung, Model and Attempt say whose), logged when the
// body is closed: the provider's reported usage, or an estimate when the
// body ended before reporting one.
const AttemptUsage Kind = "usage"

// Usage is the tokens one HTTP attempt used and their cost by the run's
// price table.
type Usage struct {
	// InputTokens and OutputTokens are the provider's prompt and completion
	// tokens, or estimates (Estimated) at four bytes a token: the request's
	// body for the input, the response text received for the output.
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// Estimated marks tokens estimated because the provider reported none:
	// an attempt cut before its answer, a stream broken off before its
	// usage chunk.
	Estimated bool `json:"estimated,omitempty"`
	// Cost is what the tokens cost by the run's price table (--price, the
	// drill file's prices:), in its currency; 0 when the model has no price.
	Cost float64 `json:"cost,omitempty"`
	// Priced is true when the price table has the model's price.
	Priced bool `json:"priced,omitempty"`
}

// Predicted is what drill predicts of a run before it starts: ranges in
// seconds from the outage's start ([low, high]; nil for never or
// unbounded) and the calls to the broken model. Note says why nothing was
// predicted (an outage kind or window the arithmetic does not read).
type Predicted struct {
	// FailureS is how long one call against the outage takes to fail and
	// be counted; nil when it never fails.
	FailureS *[2]float64 `json:"failure_s,omitempty"`
	// NthFailureS is when the count rule's Nth failure lands.
	NthFailureS *[2]float64 `json:"nth_failure_s,omitempty"`
	// FirstOpenS is when the breaker first opens; nil for never.
	FirstOpenS *[2]float64 `json:"first_open_s,omitempty"`
	// MayNeverOpen is true when the breaker may also never open.
	MayNeverOpen bool `json:"may_never_open,omitempty"`
	// WorstWaitS is the worst wait of an email sent in the outage; nil
	// when unbounded.
	WorstWaitS *[2]float64 `json:"worst_wait_s,omitempty"`
	// CallsToBroken is the range of attempts to the broken model started
	// during the outage.
	CallsToBroken [2]float64 `json:"calls_to_broken"`
	// Note is why nothing was predicted; empty when the figures hold.
	Note string `json:"note,omitempty"`
}

// OutageLabel is an outage as views name it: a drill file's name for it
// (name), else its kind.
func OutageLabel(kind, name string) string {
	if name != "" {
		return name
	}
	return kind
}
