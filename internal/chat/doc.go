// Package chat is the chat workload's engine: support conversations with
// tool calls (--workload chat). A conversation is the agent's loop: a model
// call through the real openai-go SDK with tools (streamed), the tool
// calls it asks for, the next model call with the results, until the model
// answers, a check stops it, or the turn limit is reached. Four good model
// calls answer one: interpret the question (tool_choice none), get the
// order, get the delivery, answer. Every call resends the system prompt
// (SystemPrompt: the agent's instructions, the shop's support policy and
// its rules for reading a message), the tool definitions and the history.
//
// Below the SDK, every attempt draws its fault from the run's profile (a
// normal day's and the incident window's rates per model) and inject's
// fault plays it: a 529, a trickling stream, a tool call whose arguments
// do not parse, the previous tool call repeated. The five checks of
// Policy bound a conversation, each at the layer that sees its signal: the
// status breaker on the primary model, the stream-rate check on the
// stream, the validity check on the tool call, the loop guard on the
// conversation's calls, and the conversation budget between calls.
//
// Everything that happens is an event in the run's log (event's
// conversation kinds); the figures are scoring's fold over it.
package chat
