package event

import "time"

// The workloads by name (--workload, a drill file's `workload: KIND`).
// RunInfo.Workload is WorkloadChat for a chat run and "" for triage.
const (
	WorkloadTriage = "triage"
	WorkloadChat   = "chat"
)

// The kinds of event the chat workload (support conversations with tool
// calls) records. A conversation is a loop of model calls; each model call
// is one or more HTTP attempts (the SDK's retries), and each tool call the
// model asks for is one call to a service.
const (
	// ConversationStart is a conversation starting: its first message
	// enters the agent. Chat.Conversation says which.
	ConversationStart Kind = "conversation_start"
	// ModelAttempt is one HTTP attempt of a model call ending, with its
	// Outcome, Model, Rung (primary or fallback) and the Fault applied.
	ModelAttempt Kind = "model_attempt"
	// ModelCall is one model call ending (the SDK's retries included): a
	// turn of the conversation, with what the model asked for (Chat.Step)
	// and the tokens billed for it.
	ModelCall Kind = "model_call"
	// ToolCall is one tool call ending: Chat.Tool, Chat.Dependency and the
	// Outcome (breaker_open when the dependency's breaker refused it).
	ToolCall Kind = "tool_call"
	// ConversationHandover is a conversation handed to a person, with the customer
	// told; Chat.State is what the person picking it up needs.
	ConversationHandover Kind = "handover"
	// ConversationEnd is a conversation ending: Chat.Ending says how.
	ConversationEnd Kind = "conversation_end"
)

// Conversation endings (Chat.Ending on conversation_end).
const (
	// EndingAnswered: the model gave the customer an answer.
	EndingAnswered = "answered"
	// EndingHandedOver: a person took it over and the customer was told.
	EndingHandedOver = "handed_over"
	// EndingSilent: no answer and nobody told.
	EndingSilent = "silent"
	// EndingCutOff: the run ended (stopped, aborted, its ceiling) while
	// the conversation was going on: it has no ending of its own (Reason
	// StopCanceled). Journals from before it existed log such a
	// conversation as EndingSilent with Reason StopCanceled.
	EndingCutOff = "cut_off"
)

// Why a conversation stopped without an answer (Chat.Reason on
// conversation_end and handover).
const (
	// StopTurnLimit: the conversation reached its turn limit.
	StopTurnLimit = "turn limit"
	// StopModelFailed: a model call failed after every retry.
	StopModelFailed = "model call failed"
	// StopInvalid: the validity check saw too many tool calls that did not parse.
	StopInvalid = "invalid tool calls"
	// StopLoop: the loop guard saw the same tool call too many times in a row.
	StopLoop = "repeated tool call"
	// StopBudgetTime and StopBudgetTokens: the conversation budget ran out.
	StopBudgetTime   = "time budget"
	StopBudgetTokens = "token budget"
	// StopEscalated: the model itself said it hands the customer to a person.
	StopEscalated = "model escalated"
	// StopCanceled: the run ended while the conversation was going on.
	StopCanceled = "run ended"
)

// Steps a model call ends with (Chat.Step on model_call and model_attempt).
const (
	// StepInterpret: the model's reading of the question (the first call,
	// made with tool_choice none).
	StepInterpret = "interpret"
	// StepToolCall: the model asked for a tool call whose arguments parse.
	StepToolCall = "tool_call"
	// StepRepeat: the model asked for the same tool call as its previous one.
	StepRepeat = "repeat"
	// StepMalformed: the model asked for a tool call whose arguments do not parse.
	StepMalformed = "malformed"
	// StepAnswer: the model answered the customer.
	StepAnswer = "answer"
	// StepAborted: the stream-rate check cut the stream.
	StepAborted = "aborted"
	// StepFailed: the call failed (an error after the SDK's retries).
	StepFailed = "failed"
)

// Chat is the conversation part of a chat workload's event.
type Chat struct {
	// Conversation is the 1-based conversation number.
	Conversation int `json:"conversation"`
	// Turn is the model call's 1-based number in its conversation
	// (model_attempt, model_call, tool_call).
	Turn int `json:"turn,omitempty"`
	// Elapsed is the time since the conversation started.
	Elapsed time.Duration `json:"elapsed_ns,omitempty"`
	// Step is what a model call (or attempt) ended with (Step* constants).
	Step string `json:"step,omitempty"`
	// PromptTokens and CompletionTokens are the tokens billed for a model
	// attempt or call (the whole history is resent each turn); on
	// conversation_end, the conversation's totals.
	PromptTokens     int `json:"prompt_tokens,omitempty"`
	CompletionTokens int `json:"completion_tokens,omitempty"`
	// Tool and Dependency name a tool call and the service it calls
	// (tool_call); Args are its arguments as the model wrote them.
	Tool       string `json:"tool,omitempty"`
	Dependency string `json:"dependency,omitempty"`
	Args       string `json:"args,omitempty"`
	// Ending is how a conversation ended (conversation_end: Ending*).
	Ending string `json:"ending,omitempty"`
	// Reason is why it stopped without an answer (conversation_end,
	// handover: Stop*).
	Reason string `json:"reason,omitempty"`
	// Turns is the conversation's model calls (conversation_end).
	Turns int `json:"turns,omitempty"`
	// ToolCalls is the conversation's tool calls (conversation_end).
	ToolCalls int `json:"tool_calls,omitempty"`
	// State is what a handover passes on (handover).
	State *HandoverState `json:"state,omitempty"`
}

// HandoverState is a conversation's state when it is handed to a person:
// what was found, what was attempted and why it stopped, so whoever picks
// it up does not start from scratch.
type HandoverState struct {
	// Found are the tool results the agent had, tool name → result.
	Found map[string]string `json:"found,omitempty"`
	// Attempted are the tool calls asked for, in order, as "name(args)".
	Attempted []string `json:"attempted,omitempty"`
	// Refused are the dependencies whose open breaker refused a tool call
	// of the conversation (the agent was told they were unavailable), in
	// the order first refused.
	Refused []string `json:"refused,omitempty"`
	// Reason is why it stopped (Stop*).
	Reason string `json:"reason"`
	// Told is the message the customer was given.
	Told string `json:"told"`
}
