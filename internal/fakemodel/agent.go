package fakemodel

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/drill-dev/drill/internal/answer"
)

// The fake model as a support agent.
//
// A request that offers tools gets the agent: it reads the whole
// conversation each call (the history is resent every turn, as with OpenAI)
// and decides the next step from what the messages hold, never from state
// kept between calls. It knows three functions, all taking
// {"order_id": "DR-123456"}:
//
//	get_order            the order service: the order (product, status) or not found
//	get_delivery_status  the carrier service: the parcel's status, carrier and ETA
//	get_tracking_events  the carrier service too: the parcel's scan events
//
// It calls only functions the request offers, and builds each call's
// arguments from the function's parameters schema (a property whose name
// mentions "order" gets the order number; the others their type's zero).
//
// The good path is exactly four model calls:
//
//  1. interpret: tool_choice "none" while the last message is the customer's
//     -> content: the model's reading of the question (intent, order number,
//     product, urgency) and its plan. finish_reason "stop".
//  2. tool_choice "auto" -> a call get_order(order number read from the
//     customer's messages: "DR-123456", "#123456", "order 123-456", …).
//     finish_reason "tool_calls". No order number -> content asking for it.
//  3. after the order result -> get_delivery_status (and, when the customer
//     asks about tracking and parallel_tool_calls is not false,
//     get_tracking_events in the same turn).
//  4. after the delivery result -> content: the final answer, a reply to
//     the customer built from the tool results and the policy section that
//     applies, read from the system prompt (agent_reply.go).
//
// With tool_choice "auto" on the first call the model skips the
// interpretation and calls get_order at once (three calls).
//
// A tool result is a JSON object (the services in internal/tools) or text.
// The agent reads it as one of:
//   - a fact: any result that is not one of the below;
//   - not found: {"error": "not_found", …} from get_order -> the final
//     answer says the order number was not found;
//   - unavailable: text that says the service is unavailable (an open
//     breaker's message, e.g. "delivery tracking is temporarily
//     unavailable; proceed without it or escalate"), or a JSON error
//     "unavailable" -> no retry;
//   - a failure: any other error (a timeout, a 5xx, arguments that did not
//     parse) -> the call is made again; after a failed
//     get_delivery_status it tries get_tracking_events (the same carrier),
//     and after maxServiceFailures failures from one service it treats the
//     service as unavailable.
//
// Without a fact it needs, the agent escalates: its final answer contains
// HandoverSentence (IsHandover tells it). The order is needed for every
// question but product questions and feedback; the delivery for order
// status, changes and cancellations. Otherwise it answers without the
// missing fact and says so.
//
// tool_choice "none" after the first step -> the final answer from what the
// results hold so far (escalating as above); "required" -> a call even where
// the agent would answer (the next lookup: get_order, else the delivery);
// a named function -> a call to that function; allowed_tools -> "auto" or
// "required" over those functions only; parallel_tool_calls false -> at
// most one call per turn.

// The functions the agent knows (internal/tools serves them).
const (
	toolOrder    = "get_order"
	toolDelivery = "get_delivery_status"
	toolTracking = "get_tracking_events"
)

// maxServiceFailures is how many failed results from one service the agent
// takes before it treats the service as unavailable.
const maxServiceFailures = 3

// HandoverSentence is in every final answer with which the agent escalates
// to a person.
const HandoverSentence = "I am handing this conversation over to a person on our support team"

// IsHandover reports whether a final answer escalates to a person.
func IsHandover(content string) bool { return strings.Contains(content, HandoverSentence) }

// agentReply is the agent's answer to one call: content, or tool calls.
type agentReply struct {
	Content string
	Calls   []ToolCall // IDs are set when the reply is served
}

// service is what the conversation holds about one service's lookups.
type service struct {
	facts       map[string]map[string]any // tool name -> its last good result
	text        []string                  // results that were text, not JSON
	notFound    bool
	unavailable bool
	failures    int
	lastFailed  string // the tool of the last failed result
}

// have reports whether the service gave a fact.
func (s *service) have() bool { return len(s.facts) > 0 || len(s.text) > 0 }

// givenUp reports whether the agent goes on without the service: it is
// unavailable, or failed too often.
func (s *service) givenUp() bool { return s.unavailable || s.failures >= maxServiceFailures }

// conversation is the agent's reading of a request's messages.
type conversation struct {
	reading     answer.Answer
	question    string // the customer's messages
	lastIsUser  bool
	orders      service
	carrier     service
	askTracking bool
	// policy is the system prompt's sections (a support policy's
	// RETURNS, DELIVERY, …), the rules the answer quotes; customer the
	// name the customer signed with, "" if none.
	policy   []policySection
	customer string
}

// readConversation reads the messages: the customer's question with the
// profile's reader, and every tool result, matched to its call.
func readConversation(r *reader, msgs []Message) *conversation {
	c := &conversation{}
	read := false
	calls := map[string]ToolCall{}
	for _, m := range msgs {
		switch m.Role {
		case "system", "developer":
			c.policy = append(c.policy, policyOf(m.Content)...)
		case "user":
			// The first message asks the question; a later one (the
			// customer answering the agent) may add the order number or
			// the product.
			a := r.Triage(m.Content)
			if !read {
				c.reading, read = a, true
				c.customer = signature(m.Content)
			}
			if a.OrderNumber != "" {
				c.reading.OrderNumber = a.OrderNumber
			}
			if a.Product != "" {
				c.reading.Product = a.Product
			}
			c.question += m.Content + "\n"
		case "assistant":
			for _, tc := range m.ToolCalls {
				calls[tc.ID] = tc
			}
		case "tool":
			tc := calls[m.ToolCallID]
			switch tc.Name {
			case toolOrder:
				c.orders.record(tc.Name, m.Content)
			case toolDelivery, toolTracking:
				c.carrier.record(tc.Name, m.Content)
			}
		}
	}
	if n := len(msgs); n > 0 {
		c.lastIsUser = msgs[n-1].Role == "user"
	}
	q := strings.ToLower(c.question)
	c.askTracking = strings.Contains(q, "tracking") || strings.Contains(q, "track ")
	return c
}

// record reads one tool result into the service's state.
func (s *service) record(tool, content string) {
	if obj := resultObject(content); obj != nil {
		if e, ok := obj["error"]; ok && e != nil {
			switch text := valueText(e); {
			case text == "not_found":
				s.notFound = true
			case text == "unavailable" || obj["unavailable"] == true:
				s.unavailable = true
			default:
				s.failures++
				s.lastFailed = tool
			}
			return
		}
		if s.facts == nil {
			s.facts = map[string]map[string]any{}
		}
		s.facts[tool] = obj
		return
	}
	low := strings.ToLower(content)
	switch {
	case strings.Contains(low, "unavailable") || strings.Contains(low, "proceed without"):
		s.unavailable = true
	case strings.Contains(low, "error") || strings.Contains(low, "timed out") || strings.Contains(low, "timeout") ||
		strings.Contains(low, "failed") || strings.Contains(low, "did not"):
		s.failures++
		s.lastFailed = tool
	default:
		s.text = append(s.text, content)
	}
}

// resultObject is a tool result decoded as a JSON object, nil when it is
// not one. Objects come from toolResults when the same text was decoded
// before; they are shared and only read (the agent reads facts, never
// writes them).
func resultObject(content string) map[string]any {
	if r, ok := toolResults.Get(content); ok {
		return r.obj
	}
	var obj map[string]any
	if json.Unmarshal([]byte(content), &obj) != nil || obj == nil {
		return nil
	}
	toolResults.Put(content, decodedResult{obj: obj, textLen: len(content)})
	return obj
}

// decodedResult is a tool result decoded, with the length of its text.
type decodedResult struct {
	obj     map[string]any
	textLen int
}

// toolResults caches tool results decoded as objects by their text: a chat
// drill's conversations about the same orders get the same results, and
// every call of a conversation resends those before it. A result's decoded
// map is counted at four times its text.
var toolResults = newLRU[decodedResult](1<<20, 16<<10, func(r decodedResult) int { return 4 * r.textLen })

// valueText is a decoded JSON value as text, as fmt.Sprint writes it (a
// string as it is, without the copy fmt makes).
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// orderNumber is the order the conversation is about: the order service's
// answer when there is one, else what the customer wrote.
func (c *conversation) orderNumber() string {
	if f, ok := c.orders.facts[toolOrder]; ok {
		if id, ok := f["order_id"].(string); ok && id != "" {
			return id
		}
	}
	return c.reading.OrderNumber
}

// needsOrder and needsDelivery say whether the question cannot be answered
// without the order, or without the parcel's whereabouts.
func (c *conversation) needsOrder() bool {
	return c.reading.Intent != "product_question" && c.reading.Intent != "feedback"
}

func (c *conversation) needsDelivery() bool {
	switch c.reading.Intent {
	case "order_status", "change_order", "cancel":
		return true
	}
	return false
}

// agentRespond is the agent's reply to req, read by the profile's reader.
func agentRespond(r *reader, req *ChatRequest) agentReply {
	c := readConversation(r, req.Messages)
	switch req.ToolChoice.Mode {
	case "none":
		if c.lastIsUser {
			return agentReply{Content: c.interpretation()}
		}
		return agentReply{Content: c.finalAnswer()}
	case "function":
		return agentReply{Calls: []ToolCall{c.call(req, req.ToolChoice.Function)}}
	}
	reply := c.next(req)
	if len(reply.Calls) == 0 && req.ToolChoice.Mode == "required" {
		reply = agentReply{Calls: []ToolCall{c.call(req, c.forcedTool(req))}}
	}
	if !req.ParallelToolCalls && len(reply.Calls) > 1 {
		reply.Calls = reply.Calls[:1]
	}
	return reply
}

// next is the agent's own choice of step (tool_choice "auto").
func (c *conversation) next(req *ChatRequest) agentReply {
	num := c.orderNumber()
	if num == "" {
		return agentReply{Content: c.finalAnswer()}
	}
	if !c.orders.have() {
		if c.orders.notFound || c.orders.givenUp() || !offers(req.Tools, toolOrder) {
			return agentReply{Content: c.finalAnswer()}
		}
		return agentReply{Calls: []ToolCall{c.call(req, toolOrder)}}
	}
	if c.carrier.have() || c.carrier.givenUp() {
		return agentReply{Content: c.finalAnswer()}
	}
	tool := toolDelivery
	if (c.carrier.lastFailed == toolDelivery || !offers(req.Tools, toolDelivery)) && offers(req.Tools, toolTracking) {
		tool = toolTracking
	}
	if !offers(req.Tools, tool) {
		return agentReply{Content: c.finalAnswer()}
	}
	calls := []ToolCall{c.call(req, tool)}
	if tool == toolDelivery && c.carrier.failures == 0 && c.askTracking && offers(req.Tools, toolTracking) {
		calls = append(calls, c.call(req, toolTracking))
	}
	return agentReply{Calls: calls}
}

// forcedTool is the function called when tool_choice is "required" and the
// agent would rather answer: the next lookup it lacks, else the delivery
// status again, else the first tool offered.
func (c *conversation) forcedTool(req *ChatRequest) string {
	for _, t := range []struct {
		name string
		need bool
	}{{toolOrder, !c.orders.have()}, {toolDelivery, true}, {toolTracking, true}} {
		if t.need && offers(req.Tools, t.name) {
			return t.name
		}
	}
	return req.Tools[0].Name
}

// call is a call to the named function with arguments built from its
// parameters schema: properties whose name mentions "order" get the order
// number, the others their type's zero value.
func (c *conversation) call(req *ChatRequest, name string) ToolCall {
	num := c.orderNumber()
	args := map[string]any{}
	var params map[string]any
	for _, t := range req.Tools {
		if t.Name == name {
			params = t.Parameters
		}
	}
	props, _ := params["properties"].(map[string]any)
	if len(props) == 0 && (name == toolOrder || name == toolDelivery || name == toolTracking) {
		args["order_id"] = num
	}
	for k, v := range props {
		if strings.Contains(strings.ToLower(k), "order") {
			args[k] = num
			continue
		}
		schema, _ := v.(map[string]any)
		args[k] = zeroOf(schema)
	}
	b, _ := json.Marshal(args)
	return ToolCall{Name: name, Arguments: string(b)}
}
