// Package fakemodel is drill's built-in OpenAI-compatible model server.
//
// It serves POST /v1/chat/completions (non-streamed and streamed as
// server-sent events ending in "data: [DONE]", honouring response_format
// json_schema and json_object) and GET /v1/models, with usage token counts in
// every answer and errors in OpenAI's JSON shape and status codes.
//
// Two profiles stand in for real models: gpt-5.4-mini and gpt-5.4-nano. Each
// really triages the email in the request's user message with its own
// rule-based reading of the text — it never sees the data set's answer key.
// mini follows the shop's written rules with a smaller-but-good model's
// blind spots, each a way of reading any email with the feature: it does
// not infer a deadline the customer only implies (a date and a trip, nothing
// said of needing anything by then), does not know nicknames that share no
// word with the catalogue name, and does not join an order number broken
// over a line. nano has those and cruder rules ("URGENT" means high, a
// subtle deadline goes unnoticed), so most of its mistakes are on urgency.
// Read (and Explainer) say which of these rules decided each field.
//
// A request that offers tools gets the support agent of the chat workload
// instead (agent.go says its protocol: the functions get_order,
// get_delivery_status and get_tracking_events, four calls on a good path,
// tool_choice, parallel_tool_calls, tool messages and streamed tool-call
// deltas as OpenAI has them).
//
// Each call waits a latency drawn from a per-profile distribution, seeded by
// (Options.Seed, model, request body, X-Stainless-Retry-Count), so a run
// repeats exactly whatever the goroutine schedule. Waits use timers and honour
// the request's context, so the server works in fake time inside a
// testing/synctest bubble through Server.Transport, which calls the handler
// in-process without sockets.
package fakemodel
