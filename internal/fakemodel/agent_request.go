package fakemodel

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// ToolCall is one function call an assistant message asked for: its id, the
// function's name and its arguments as the JSON text the model wrote.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

// Tool is one function a request offers the model: its name, description
// and JSON-schema parameters (nil when not given).
type Tool struct {
	Name        string
	Description string
	Parameters  map[string]any
	Strict      bool
}

// ToolChoice is a request's tool_choice: Mode is "none", "auto" or
// "required", or "function" with Function naming the one tool to call.
type ToolChoice struct {
	Mode     string
	Function string
}

// toolName is the pattern OpenAI requires of a function name.
var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// decodeToolFields reads the tool-calling fields of message i: an assistant
// message's tool_calls and a tool message's tool_call_id, checked as OpenAI
// checks them.
func decodeToolFields(i int, mm map[string]json.RawMessage, msg *Message) *APIError {
	if tc, ok := mm["tool_calls"]; ok && !isNull(tc) {
		if msg.Role != "assistant" {
			return badRequest(pi(i, ".tool_calls"), "invalid_value", "Invalid parameter: 'tool_calls' is only allowed on messages with role 'assistant'.")
		}
		var calls []struct {
			ID       string `json:"id"`
			Type     string `json:"type"`
			Function *struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		}
		if err := json.Unmarshal(tc, &calls); err != nil {
			return badRequest(pi(i, ".tool_calls"), "invalid_type", "Invalid type for 'messages[%d].tool_calls': expected an array of tool call objects.", i)
		}
		for j, c := range calls {
			switch {
			case c.ID == "":
				return badRequest(pi(i, ".tool_calls"), "missing_required_parameter", "Missing required parameter: 'messages[%d].tool_calls[%d].id'.", i, j)
			case c.Type != "function":
				return badRequest(pi(i, ".tool_calls"), "invalid_value", "Invalid value for 'messages[%d].tool_calls[%d].type': expected 'function'.", i, j)
			case c.Function == nil || c.Function.Name == "":
				return badRequest(pi(i, ".tool_calls"), "missing_required_parameter", "Missing required parameter: 'messages[%d].tool_calls[%d].function.name'.", i, j)
			}
			msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
	}
	if msg.Role == "tool" {
		id, ok := mm["tool_call_id"]
		if !ok || isNull(id) {
			return badRequest(pi(i, ".tool_call_id"), "missing_required_parameter", "Missing required parameter: 'messages[%d].tool_call_id'.", i)
		}
		if err := json.Unmarshal(id, &msg.ToolCallID); err != nil {
			return badRequest(pi(i, ".tool_call_id"), "invalid_type", "Invalid type for 'messages[%d].tool_call_id': expected a string, but got %s instead.", i, jsonKind(id))
		}
	}
	return nil
}

// checkToolMessages checks the order of tool calls and their results as
// OpenAI does: a tool message answers a call of the assistant message before
// it, and an assistant message with tool_calls is followed by a tool message
// for each of its calls.
func checkToolMessages(msgs []Message) *APIError {
	// The distinct ids of the last assistant message's calls still
	// unanswered: a handful, so a slice (on the stack) rather than a map.
	var buf [8]string
	open, openAt := buf[:0], -1
	for i, m := range msgs {
		if m.Role == "tool" {
			j := slices.Index(open, m.ToolCallID)
			if j < 0 {
				return badRequest(pi(i, ".role"), "", "Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls'; 'tool_call_id' '%s' was not found in 'tool_calls' of the previous assistant message.", m.ToolCallID)
			}
			open = slices.Delete(open, j, j+1)
			continue
		}
		if e := unanswered(open, openAt); e != nil {
			return e
		}
		open, openAt = open[:0], -1
		if m.Role == "assistant" && len(m.ToolCalls) > 0 {
			openAt = i
			for _, c := range m.ToolCalls {
				if !slices.Contains(open, c.ID) {
					open = append(open, c.ID)
				}
			}
		}
	}
	return unanswered(open, openAt)
}

// unanswered is the error for the calls of message at that no tool message
// answered (open: their distinct ids), or nil when there are none.
func unanswered(open []string, at int) *APIError {
	if len(open) == 0 {
		return nil
	}
	ids := slices.Sorted(slices.Values(open))
	return badRequest(pi(at, ".role"), "", "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", strings.Join(ids, ", "))
}

// given reports whether a parameter's JSON text v is there and not null.
func given(v json.RawMessage) bool { return len(v) > 0 && !isNull(v) }

// applyTools reads the JSON texts of tools, tool_choice and
// parallel_tool_calls (each nil when absent) into req, whose messages are
// decoded, and checks them and the tool messages as OpenAI does. Both
// request paths use it, so they decode the tool parameters alike.
func applyTools(req *ChatRequest, tools, choice, parallel json.RawMessage) *APIError {
	req.ParallelToolCalls = true
	if given(tools) {
		list, e := toolList(tools)
		if e != nil {
			return e
		}
		// Full slice expression: an append to req.Tools copies rather than
		// writes into the cached array.
		req.Tools, req.toolTokens = list.tools[:len(list.tools):len(list.tools)], list.tokens
	}
	req.ToolChoice = ToolChoice{Mode: "none"}
	if len(req.Tools) > 0 {
		req.ToolChoice.Mode = "auto"
	}
	if given(choice) {
		if len(req.Tools) == 0 {
			return badRequest("tool_choice", "", "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.")
		}
		if mode, ok := toolModes[string(choice)]; ok {
			// The SDK's plain forms, read without encoding/json.
			req.ToolChoice.Mode = mode
		} else if mode := ""; json.Unmarshal(choice, &mode) == nil {
			if mode != "none" && mode != "auto" && mode != "required" {
				return badRequest("tool_choice", "invalid_value", "Invalid value for 'tool_choice': expected one of none, auto, required, or an object naming a function.")
			}
			req.ToolChoice.Mode = mode
		} else {
			var named struct {
				namedFunction
				AllowedTools struct {
					Mode  string          `json:"mode"`
					Tools []namedFunction `json:"tools"`
				} `json:"allowed_tools"`
			}
			err := json.Unmarshal(choice, &named)
			switch {
			case err == nil && named.Type == "function" && named.Function.Name != "":
				if !offers(req.Tools, named.Function.Name) {
					return badRequest("tool_choice", "", "Invalid value for 'tool_choice': tool choice function '%s' not found in 'tools'.", named.Function.Name)
				}
				req.ToolChoice = ToolChoice{Mode: "function", Function: named.Function.Name}
			case err == nil && named.Type == "allowed_tools":
				if e := allowTools(req, named.AllowedTools.Mode, named.AllowedTools.Tools); e != nil {
					return e
				}
			default:
				return badRequest("tool_choice", "invalid_value", "Invalid value for 'tool_choice': expected one of none, auto, required, {\"type\": \"function\", \"function\": {\"name\": ...}} or {\"type\": \"allowed_tools\", ...}.")
			}
		}
	}
	if given(parallel) {
		if len(req.Tools) == 0 {
			return badRequest("parallel_tool_calls", "", "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.")
		}
		switch string(parallel) {
		case "true", "false":
			req.ParallelToolCalls = string(parallel) == "true"
		default:
			if err := json.Unmarshal(parallel, &req.ParallelToolCalls); err != nil {
				return badRequest("parallel_tool_calls", "invalid_type", "Invalid type for 'parallel_tool_calls': expected a boolean, but got %s instead.", jsonKind(parallel))
			}
		}
	}
	return checkToolMessages(req.Messages)
}

// toolModes are the tool_choice strings as openai-go writes them (no
// escapes, no spaces), with what encoding/json decodes them to.
var toolModes = map[string]string{`"none"`: "none", `"auto"`: "auto", `"required"`: "required"}

// toolSet is a request's tools array decoded and checked: the functions and
// the prompt tokens their definitions add.
type toolSet struct {
	tools   []Tool
	tokens  int
	textLen int // the length of the JSON text, for toolSets' bound
}

// toolSets caches decoded tools arrays by their JSON text: a chat drill
// sends the same definitions with every call of every conversation, so
// they are decoded, checked and counted once. Only arrays that pass the
// checks are stored (whether one passes depends on its text alone). A
// cached set is shared between requests and never modified: the agent only
// reads the functions and their parameters. A set's decoded maps are
// counted at four times its text.
var toolSets = newLRU[toolSet](1<<20, 64<<10, func(t toolSet) int { return 4 * t.textLen })

// toolList decodes and checks a tools array, or takes it from toolSets.
func toolList(text json.RawMessage) (toolSet, *APIError) {
	// The text is only looked up, not kept: no copy of it.
	if list, ok := toolSets.Get(unsafeString(text)); ok {
		return list, nil
	}
	list, e := decodeToolList(text)
	if e == nil {
		toolSets.Put(string(text), list)
	}
	return list, e
}

// decodeToolList decodes a tools array and checks it as OpenAI does.
func decodeToolList(text json.RawMessage) (toolSet, *APIError) {
	list := toolSet{textLen: len(text)}
	var tools []struct {
		Type     string `json:"type"`
		Function *struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			Parameters  map[string]any `json:"parameters"`
			Strict      bool           `json:"strict"`
		} `json:"function"`
	}
	if err := json.Unmarshal(text, &tools); err != nil {
		return toolSet{}, badRequest("tools", "invalid_type", "Invalid type for 'tools': expected an array of tool objects.")
	}
	if len(tools) == 0 {
		return toolSet{}, badRequest("tools", "empty_array", "Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.")
	}
	seen := map[string]bool{}
	for i, t := range tools {
		param := "tools[" + strconv.Itoa(i) + "]"
		switch {
		case t.Type != "function":
			return toolSet{}, badRequest(param+".type", "invalid_value", "Invalid value for '%s.type': drill's fake model supports only 'function' tools.", param)
		case t.Function == nil:
			return toolSet{}, badRequest(param+".function", "missing_required_parameter", "Missing required parameter: '%s.function'.", param)
		case !toolName.MatchString(t.Function.Name):
			return toolSet{}, badRequest(param+".function.name", "invalid_value", "Invalid '%s.function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$' of at most 64 characters.", param)
		case seen[t.Function.Name]:
			return toolSet{}, badRequest("tools", "", "Invalid 'tools': duplicate function name '%s'.", t.Function.Name)
		}
		seen[t.Function.Name] = true
		if t.Function.Strict && t.Function.Parameters != nil {
			if msg := checkStrict(t.Function.Parameters, nil); msg != "" {
				return toolSet{}, badRequest(param+".function.parameters", "", "Invalid schema for function '%s': %s", t.Function.Name, msg)
			}
		}
		list.tools = append(list.tools, Tool{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters, Strict: t.Function.Strict})
		list.tokens += countTokens(t.Function.Name) + countTokens(t.Function.Description) + 8
		if t.Function.Parameters != nil {
			b, _ := json.Marshal(t.Function.Parameters)
			list.tokens += countTokens(string(b))
		}
	}
	return list, nil
}

// namedFunction is a function named in a tool_choice: {"type":
// "function", "function": {"name": …}}.
type namedFunction struct {
	Type     string `json:"type"`
	Function struct {
		Name string `json:"name"`
	} `json:"function"`
}

// allowTools applies an allowed_tools tool_choice: mode "auto" or
// "required" over the named functions, each of which the request must
// offer. The agent then sees only those functions; the prompt still counts
// every definition, as the request carries them.
func allowTools(req *ChatRequest, mode string, named []namedFunction) *APIError {
	if mode != "auto" && mode != "required" {
		return badRequest("tool_choice.allowed_tools.mode", "invalid_value", "Invalid value for 'tool_choice.allowed_tools.mode': expected one of auto, required.")
	}
	if len(named) == 0 {
		return badRequest("tool_choice.allowed_tools.tools", "empty_array", "Invalid 'tool_choice.allowed_tools.tools': empty array. Expected an array with minimum length 1, but got an empty array instead.")
	}
	var allowed []Tool
	for i, f := range named {
		name := f.Function.Name
		if f.Type != "function" || !offers(req.Tools, name) {
			return badRequest("tool_choice.allowed_tools.tools", "", "Invalid value for 'tool_choice.allowed_tools.tools[%d]': function '%s' not found in 'tools'.", i, name)
		}
		for _, t := range req.Tools {
			if t.Name == name && !offers(allowed, name) {
				allowed = append(allowed, t)
			}
		}
	}
	req.Tools, req.ToolChoice = allowed, ToolChoice{Mode: mode}
	return nil
}

// offers reports whether tools holds a function called name.
func offers(tools []Tool, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}
