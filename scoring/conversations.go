package scoring

import (
	"maps"
	"slices"
	"time"

	"github.com/drill-dev/drill/event"
)

// LongConversation is the wait a support chat counts as too long: two
// minutes (ChatSummary.Over120s).
const LongConversation = 120 * time.Second

// ChartInterval is the width of the chat chart's intervals: the slowest
// conversation starting in each 20 s, and the silent endings under it.
const ChartInterval = 20 * time.Second

// ChatSummary is the chat workload's figures: THE fold of a chat run's log,
// live or replayed. Times are seconds.
type ChatSummary struct {
	Workload string `json:"workload"`
	Incident string `json:"incident"`
	Policy   string `json:"policy"`
	Seed     int64  `json:"seed"`
	Clock    string `json:"clock"`
	Status   string `json:"status"`
	// Checks are the policy's checks that are on, in words.
	Checks []string `json:"checks"`

	Conversations int `json:"conversations"`
	Answered      int `json:"answered"`
	HandedOver    int `json:"handed_over"`
	// Silent counts the conversations that ended with no answer and
	// nobody told; not those the run's end cut off (CutOff).
	Silent int `json:"silent"`
	// CutOff counts the conversations still going on when the run ended
	// (stopped, aborted, its ceiling): no ending of their own.
	CutOff    int `json:"cut_off"`
	TurnLimit int `json:"turn_limit"`
	// Stopped counts the conversations that ended without an answer by
	// why (event's Stop* reasons).
	Stopped map[string]int `json:"stopped"`
	// Stops are why conversations ended, a row per check or limit with
	// how many ended each way (answered first).
	Stops []ChatStop `json:"stops"`
	// IncidentFromS and IncidentToS are the incident window, seconds from
	// the run's start; both 0 when the run had no incident.
	IncidentFromS float64 `json:"incident_from_s"`
	IncidentToS   float64 `json:"incident_to_s"`

	TimeP50S float64 `json:"time_p50_s"`
	TimeP95S float64 `json:"time_p95_s"`
	TimeP99S float64 `json:"time_p99_s"`
	TimeMaxS float64 `json:"time_max_s"`
	Over120s int     `json:"over_120s"`

	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TokensBilled     int `json:"tokens_billed"`

	ModelCalls    int `json:"model_calls"`
	ModelAttempts int `json:"model_attempts"`
	FallbackCalls int `json:"fallback_calls"`
	Aborted       int `json:"aborted_streams"`
	ToolCalls     int `json:"tool_calls"`
	// ToolsRefused are tool calls an open breaker answered for.
	ToolsRefused int `json:"tools_refused"`
	// ToolProbes are the tool breakers' synthetic probes (no
	// conversation's call; not in ToolCalls).
	ToolProbes int `json:"tool_probes"`
	// AnsweredWithout counts answered conversations that went without a
	// dependency: a tool call refused by its breaker or failed, and the
	// dependency never answered one of theirs.
	AnsweredWithout int `json:"answered_without_dependency"`
	// BreakerOpens counts each breaker's openings by the dependency it
	// guards ("primary" for the status breaker on the primary model).
	BreakerOpens map[string]int `json:"breaker_opens"`
	// Hypotheses are the drill's checks (--expect, a drill file's
	// hypotheses:) judged on these figures (JudgeChat); omitted when
	// there were none. The fold leaves it empty: the run's end judges.
	Hypotheses []Verdict `json:"hypotheses,omitempty"`
}

// ConversationRow is one conversation as the pane and the report list it.
type ConversationRow struct {
	ID      int           `json:"conversation"`
	Start   time.Duration `json:"start_ns"`
	Time    time.Duration `json:"time_ns"`
	Turns   int           `json:"turns"`
	Tokens  int           `json:"tokens"`
	Ending  string        `json:"ending"`
	Reason  string        `json:"reason,omitempty"`
	Running bool          `json:"running,omitempty"`
	// Without are the dependencies the conversation went without: a tool
	// call of theirs refused by an open breaker or failed, and none of
	// theirs answered, before or after.
	Without []string `json:"without,omitempty"`
	// got are the dependencies a tool call of the conversation got an
	// answer from.
	got []string
}

// toolResult notes a tool call of the conversation on dependency dep: one
// answered (ok) takes dep off Without for good; one refused or failed puts
// it there unless dep answered before.
func (r *ConversationRow) toolResult(dep string, ok bool) {
	switch {
	case ok:
		if !slices.Contains(r.got, dep) {
			r.got = append(r.got, dep)
		}
		r.Without = slices.DeleteFunc(r.Without, func(d string) bool { return d == dep })
	case !slices.Contains(r.got, dep) && !slices.Contains(r.Without, dep):
		r.Without = append(r.Without, dep)
	}
}

// TraceStep is one model attempt or tool call of a conversation's trace:
// when (from the conversation's start), which model or tool, and how it
// ended.
type TraceStep struct {
	At      time.Duration `json:"at_ns"`
	Turn    int           `json:"turn"`
	Model   string        `json:"model,omitempty"`
	Rung    string        `json:"rung,omitempty"`
	Tool    string        `json:"tool,omitempty"`
	Fault   string        `json:"fault,omitempty"`
	Outcome string        `json:"outcome"`
	Tokens  int           `json:"tokens,omitempty"`
}

// ChatFold folds a chat run's events: feed it every event in order (Add),
// read the figures at any point (Summary, Rows).
type ChatFold struct {
	info     *event.RunInfo
	clock    string
	status   string
	rows     map[int]*ConversationRow
	order    []int
	sum      ChatSummary
	traceOf  int
	trace    []TraceStep
	handover *event.HandoverState
}

// NewChatFold returns an empty fold; with trace > 0 it also keeps the trace
// of that conversation.
func NewChatFold(trace int) *ChatFold {
	return &ChatFold{rows: map[int]*ConversationRow{}, traceOf: trace,
		sum: ChatSummary{Stopped: map[string]int{}, BreakerOpens: map[string]int{}}}
}

// FoldChat folds a whole chat run's log into its summary.
func FoldChat(events []event.Event) ChatSummary {
	f := NewChatFold(0)
	for _, e := range events {
		f.Add(e)
	}
	return f.Summary()
}

// IsChat reports whether a run's log is the chat workload's.
func IsChat(events []event.Event) bool {
	for _, e := range events {
		if e.Kind == event.RunStart && e.Run != nil {
			return e.Run.Workload == event.WorkloadChat
		}
	}
	return false
}

// Add folds one event.
func (f *ChatFold) Add(e event.Event) {
	s := &f.sum
	switch e.Kind {
	case event.RunStart:
		f.info = e.Run
	case event.RunClock:
		f.clock = e.Detail
	case event.RunEnd:
		f.status = e.Detail
	case event.BreakerChange:
		if b := e.Breaker; b != nil && b.To == "open" {
			s.BreakerOpens[b.Name]++
		}
	case event.ConversationStart:
		c := e.Chat
		f.rows[c.Conversation] = &ConversationRow{ID: c.Conversation, Start: e.At, Running: true}
		f.order = append(f.order, c.Conversation)
	case event.ModelAttempt:
		s.ModelAttempts++
		f.step(e, TraceStep{Model: e.Model, Rung: e.Rung, Fault: e.Fault, Outcome: attemptOutcome(e)})
	case event.ModelCall:
		c := e.Chat
		// A model call is a turn: a stream the stream-rate check aborted and
		// the call retried on the fallback is one call, its retry two streams.
		if r := f.rows[c.Conversation]; r == nil || c.Turn > r.Turns {
			s.ModelCalls++
		}
		if e.Rung == "fallback" {
			s.FallbackCalls++
		}
		if c.Step == event.StepAborted {
			s.Aborted++
		}
		s.PromptTokens += c.PromptTokens
		s.CompletionTokens += c.CompletionTokens
		if r := f.rows[c.Conversation]; r != nil {
			r.Turns = c.Turn
			r.Tokens += c.PromptTokens + c.CompletionTokens
		}
	case event.ToolCall:
		c := e.Chat
		if e.Synthetic {
			s.ToolProbes++
			return
		}
		s.ToolCalls++
		if e.Outcome == event.BreakerOpen {
			s.ToolsRefused++
		}
		if r := f.rows[c.Conversation]; r != nil {
			r.toolResult(c.Dependency, e.Outcome == event.OK)
		}
		f.step(e, TraceStep{Tool: c.Tool, Outcome: string(e.Outcome)})
	case event.ConversationHandover:
		if c := e.Chat; c != nil && c.Conversation == f.traceOf {
			f.handover = c.State
		}
	case event.ConversationEnd:
		c := e.Chat
		r := f.rows[c.Conversation]
		if r == nil {
			r = &ConversationRow{ID: c.Conversation, Start: e.At - c.Elapsed}
			f.rows[c.Conversation] = r
			f.order = append(f.order, c.Conversation)
		}
		r.Running, r.Time, r.Ending, r.Reason, r.Turns = false, c.Elapsed, ending(c), c.Reason, c.Turns
		r.Tokens = c.PromptTokens + c.CompletionTokens
		if f.traceOf == c.Conversation {
			f.trace = append(f.trace, TraceStep{At: c.Elapsed, Turn: c.Turns, Outcome: r.Ending + reasonSuffix(c.Reason)})
		}
	}
}

// ending is how a conversation_end says the conversation ended; a
// conversation the run's end cut off is cut off, also in journals that
// logged it as silent (before event.EndingCutOff existed).
func ending(c *event.Chat) string {
	if c.Ending == event.EndingSilent && c.Reason == event.StopCanceled {
		return event.EndingCutOff
	}
	return c.Ending
}

func reasonSuffix(r string) string {
	if r == "" {
		return ""
	}
	return " (" + r + ")"
}

// attemptOutcome names how a model attempt ended as a trace shows it: the
// fault it met when one was drawn, else its step.
func attemptOutcome(e event.Event) string {
	if e.Fault != "" {
		return e.Fault
	}
	if e.Chat != nil && e.Chat.Step != event.StepFailed {
		return "ok"
	}
	return string(e.Outcome)
}

func (f *ChatFold) step(e event.Event, st TraceStep) {
	c := e.Chat
	if c == nil || f.traceOf != c.Conversation {
		return
	}
	st.At, st.Turn = c.Elapsed, c.Turn
	st.Tokens = c.PromptTokens + c.CompletionTokens
	f.trace = append(f.trace, st)
}

// ChatTrace is one conversation's trace: its row and every model attempt
// and tool call, in order (drill replay --conversation N).
type ChatTrace struct {
	Conversation ConversationRow `json:"conversation"`
	Steps        []TraceStep     `json:"steps"`
	// Handover is what the conversation's handover passed on, if it was
	// handed over.
	Handover *event.HandoverState `json:"handover,omitempty"`
}

// Row is conversation id's row, if it started.
func (f *ChatFold) Row(id int) (ConversationRow, bool) {
	r, ok := f.rows[id]
	if !ok {
		return ConversationRow{}, false
	}
	return *r, true
}

// Planned is how many conversations the run starts (its run_start's
// count), 0 before it is known.
func (f *ChatFold) Planned() int {
	if f.info == nil {
		return 0
	}
	return f.info.Emails
}

// Trace is the kept conversation's trace, in order.
func (f *ChatFold) Trace() []TraceStep { return slices.Clone(f.trace) }

// TraceOf is the kept conversation's whole trace: its row, its steps and
// its handover; false if it never started.
func (f *ChatFold) TraceOf() (ChatTrace, bool) {
	row, ok := f.Row(f.traceOf)
	return ChatTrace{Conversation: row, Steps: f.Trace(), Handover: f.handover}, ok
}

// Rows lists the conversations in the order they started.
func (f *ChatFold) Rows() []ConversationRow {
	out := make([]ConversationRow, 0, len(f.order))
	for _, id := range f.order {
		r := *f.rows[id]
		r.Without = slices.Clone(r.Without)
		out = append(out, r)
	}
	return out
}

// Summary is the figures so far.
func (f *ChatFold) Summary() ChatSummary {
	s := f.sum
	s.Stopped = maps.Clone(f.sum.Stopped)
	s.BreakerOpens = maps.Clone(f.sum.BreakerOpens)
	s.Workload, s.Clock, s.Status = event.WorkloadChat, f.clock, f.status
	if s.Clock == "" {
		s.Clock = event.ClockReal
	}
	if i := f.info; i != nil {
		s.Incident, s.Policy, s.Seed, s.Checks = i.Outage, i.Policy, i.Seed, slices.Clone(i.Options)
		if i.Outage != "none" && i.OutageToS > i.OutageFromS {
			s.IncidentFromS, s.IncidentToS = i.OutageFromS, i.OutageToS
		}
	}
	s.Stops = chatStops(f.rows)
	if s.Checks == nil {
		s.Checks = []string{}
	}
	var times []float64
	for _, id := range f.order {
		r := f.rows[id]
		s.Conversations++
		if r.Running {
			continue
		}
		times = append(times, r.Time.Seconds())
		if r.Time > LongConversation {
			s.Over120s++
		}
		switch r.Ending {
		case event.EndingAnswered:
			s.Answered++
			if len(r.Without) > 0 {
				s.AnsweredWithout++
			}
		case event.EndingHandedOver:
			s.HandedOver++
		case event.EndingSilent:
			s.Silent++
		case event.EndingCutOff:
			s.CutOff++
		}
		if r.Reason != "" {
			s.Stopped[r.Reason]++
		}
		if r.Reason == event.StopTurnLimit {
			s.TurnLimit++
		}
	}
	slices.Sort(times)
	if len(times) > 0 {
		s.TimeP50S = round(Quantile(times, 0.50), 1)
		s.TimeP95S = round(Quantile(times, 0.95), 1)
		s.TimeP99S = round(Quantile(times, 0.99), 1)
		s.TimeMaxS = round(times[len(times)-1], 1)
	}
	s.TokensBilled = s.PromptTokens + s.CompletionTokens
	return s
}

// ChartBar is one interval of the chat chart: the slowest conversation
// that started in it and the conversations starting in it that ended
// silent (no answer, nobody told).
type ChartBar struct {
	From    time.Duration `json:"from_ns"`
	Slowest time.Duration `json:"slowest_ns"`
	Silent  int           `json:"silent"`
}

// Chart is the chat chart's bars: one per ChartInterval from the run's
// start to the last conversation's start.
func Chart(rows []ConversationRow) []ChartBar {
	var bars []ChartBar
	for _, r := range rows {
		i := int(r.Start / ChartInterval)
		for len(bars) <= i {
			bars = append(bars, ChartBar{From: time.Duration(len(bars)) * ChartInterval})
		}
		b := &bars[i]
		b.Slowest = max(b.Slowest, r.Time)
		if r.Ending == event.EndingSilent {
			b.Silent++
		}
	}
	return bars
}

// BreakerOpensTotal is every breaker's openings together, model and tools.
func (s ChatSummary) BreakerOpensTotal() int {
	n := 0
	for _, v := range s.BreakerOpens {
		n += v
	}
	return n
}
